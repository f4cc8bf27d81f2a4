// Package desktop opens Baton's window (Wails), serves the console's built frontend in it, binds the console
// API and forwards every event to the page.
package desktop

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Wails events carrying activity events and host state to the page (API.md).
const (
	EventName          = "baton:event"
	AuthEventName      = "baton:auth"
	ProvisionEventName = "baton:provision"
	// IndexEventName carries the session index's state (console.IndexState).
	IndexEventName = "baton:index"
	// SessionsEventName announces that stored sessions changed outside this Baton (console.SessionsChange).
	SessionsEventName = "baton:sessions"
	// ChangesEventName carries an open session's change counts (console.ChangesUpdate).
	ChangesEventName = "baton:changes"
	// TerminalEventName carries a terminal's output (console.TerminalOutput).
	TerminalEventName = "baton:terminal"
)

// Options configures the window.
type Options struct {
	// Assets is the embedded tree holding frontend/dist; without an index.html a placeholder page is shown.
	Assets fs.FS
	// Console is the console API's options (Sessions required); Run sets the transport, folder picker and
	// notifications, which only the window has.
	Console console.Options
}

// Run opens the window and blocks until it is closed.
func Run(opts Options) error {
	assets, hasIndex := console.FrontendAssets(opts.Assets)
	server := &assetserver.Options{Assets: assets}
	if !hasIndex {
		server = &assetserver.Options{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(console.PlaceholderPage())
		})}
	}
	var wailsCtx context.Context
	copts := opts.Console
	copts.Transport = "wails"
	copts.PickFolder = func() (string, error) {
		// Start in the home folder: GTK's default "Recent" view offers nothing to pick a folder from.
		home, _ := os.UserHomeDir()
		return runtime.OpenDirectoryDialog(wailsCtx, runtime.OpenDialogOptions{Title: "Choose the project folder",
			DefaultDirectory: home, CanCreateDirectories: true})
	}
	copts.Notify = nativeNotifier()
	api := console.New(copts)
	defer console.Release(api)
	sub := copts.Sessions.Subscribe(nil)
	defer sub.Close()

	err := wails.Run(&options.App{
		Title:            "Baton",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		AssetServer:      server,
		Bind:             []any{api},
		// The page reads {code, message} (toApiError); without this Wails sends only the text and every
		// failed call would read as internal.
		ErrorFormatter: FormatError,
		OnStartup: func(ctx context.Context) {
			wailsCtx = ctx
			forward := console.Forwarding(sub.C(), copts.Host, wailsPusher{ctx})
			go func() { _ = forward(ctx) }()
			feed := console.WatchTerminals(api)
			go func() { _ = feed.Forward(ctx, wailsPusher{ctx}) }()
		},
	})
	if err != nil {
		return fmt.Errorf("open the Baton window: %w", err)
	}
	return nil
}

// FormatError is what a failed bound call rejects with in the page: the console's {code, message}.
func FormatError(err error) any { return console.AsError(err) }

// wailsPusher emits pushes as the Wails events the page listens to.
type wailsPusher struct{ ctx context.Context }

func (w wailsPusher) Event(ev activity.Event) error {
	runtime.EventsEmit(w.ctx, EventName, ev)
	return nil
}

func (w wailsPusher) Auth(a console.AuthState) error {
	runtime.EventsEmit(w.ctx, AuthEventName, a)
	return nil
}

func (w wailsPusher) Provision(p console.ProvisionState) error {
	runtime.EventsEmit(w.ctx, ProvisionEventName, p)
	return nil
}

func (w wailsPusher) Index(s console.IndexState) error {
	runtime.EventsEmit(w.ctx, IndexEventName, s)
	return nil
}

func (w wailsPusher) Changes(u console.ChangesUpdate) error {
	runtime.EventsEmit(w.ctx, ChangesEventName, u)
	return nil
}

func (w wailsPusher) Sessions(s console.SessionsChange) error {
	runtime.EventsEmit(w.ctx, SessionsEventName, s)
	return nil
}

func (w wailsPusher) Terminal(t console.TerminalOutput) error {
	runtime.EventsEmit(w.ctx, TerminalEventName, t)
	return nil
}
