package app

import (
	"github.com/baton-console/baton/app/receipts"
	"github.com/baton-console/baton/provision/platform"
	"github.com/rs/zerolog"
)

// openReceipts opens the turn receipts in Baton's data dir. Without a usable data dir Baton still runs, keeping no
// receipts, and says so in its log.
func openReceipts(log zerolog.Logger) *receipts.Store {
	dir, err := platform.DataDir()
	if err == nil {
		var store *receipts.Store
		if store, err = receipts.Open(dir); err == nil {
			return store
		}
	}
	log.Warn().Err(err).Msg("turn receipts are not kept")
	return nil
}
