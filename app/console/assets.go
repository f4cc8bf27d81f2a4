package console

import (
	_ "embed"
	"io/fs"
)

//go:embed placeholder.html
var placeholderPage []byte

// PlaceholderPage is shown when Baton was built without the console's frontend (frontend/dist is empty).
func PlaceholderPage() []byte { return placeholderPage }

// FrontendAssets finds the built frontend inside the embedded tree (embedded as frontend/dist); ok is false when
// it holds no index.html.
func FrontendAssets(root fs.FS) (assets fs.FS, ok bool) {
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
