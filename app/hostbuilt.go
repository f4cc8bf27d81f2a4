package app

import (
	"context"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/index"
)

// builtIndex is a headless command's search and usage: every transcript indexed first, so nothing is missed.
type builtIndex struct{ ix *index.Index }

func (b builtIndex) Search(ctx context.Context, q index.SearchQuery) ([]index.Hit, error) {
	if err := b.ix.WaitBuilt(ctx); err != nil {
		return nil, err
	}
	return b.ix.Search(ctx, q)
}

func (b builtIndex) Usage(ctx context.Context, q index.UsageQuery) (index.UsageReport, error) {
	if err := b.ix.WaitBuilt(ctx); err != nil {
		return index.UsageReport{}, err
	}
	return b.ix.Usage(ctx, q)
}

// consoleIndex is the console's search and usage: the index as it is now, built in the background (nil: none).
func (h *Host) consoleIndex() console.Index {
	if h.index == nil {
		return nil
	}
	return h.index
}
