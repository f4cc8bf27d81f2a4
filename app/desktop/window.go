// Package desktop opens Baton's window (Wails) and serves the console's built frontend in it.
package desktop

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/rs/zerolog"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

//go:embed placeholder.html
var placeholder []byte

// Options configures the window.
type Options struct {
	// Assets is the built frontend (frontend/dist); when it has no index.html a placeholder page is shown.
	Assets     fs.FS
	Version    string
	Logger     zerolog.Logger
	OnShutdown func(ctx context.Context)
}

// Run opens the window and blocks until it is closed.
func Run(opts Options) error {
	assets, hasIndex := frontendAssets(opts.Assets)
	server := &assetserver.Options{Assets: assets}
	if !hasIndex {
		server.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(placeholder)
		})
		server.Assets = nil
	}
	err := wails.Run(&options.App{
		Title:            "Baton",
		Width:            1200,
		Height:           800,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		AssetServer:      server,
		OnShutdown:       opts.OnShutdown,
	})
	if err != nil {
		return fmt.Errorf("open the Baton window: %w", err)
	}
	return nil
}

// frontendAssets finds the built frontend inside the embedded tree (embedded as frontend/dist).
func frontendAssets(root fs.FS) (fs.FS, bool) {
	if root == nil {
		return nil, false
	}
	sub, err := fs.Sub(root, "frontend/dist")
	if err != nil {
		return nil, false
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return sub, false
	}
	return sub, true
}
