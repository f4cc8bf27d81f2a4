package app

import (
	"context"

	"github.com/baton-console/baton/app/index"
)

// builtSearch is a headless command's search: every transcript indexed first, so nothing is missed.
type builtSearch struct{ ix *index.Index }

func (s builtSearch) Search(ctx context.Context, q index.SearchQuery) ([]index.Hit, error) {
	if err := s.ix.WaitBuilt(ctx); err != nil {
		return nil, err
	}
	return s.ix.Search(ctx, q)
}
