package console_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// The window has no server to send headers: its policy is the meta tag in the built index.html that the binary
// embeds. It must say exactly what browser mode's header says, and the page must need nothing the policy
// forbids (an inline script or style would be blocked and leave the window blank).
func TestBuiltPageCarriesThePolicy(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	assets, ok := console.FrontendAssets(os.DirFS(root))
	require.True(t, ok, "no built console in %s: run scripts/build first", filepath.Join(root, "frontend/dist"))
	page, err := fs.ReadFile(assets, "index.html")
	require.NoError(t, err)
	doc, err := html.Parse(bytes.NewReader(page))
	require.NoError(t, err)

	var policies []string
	var inline []string
	var walk func(n *html.Node, inHead bool)
	walk = func(n *html.Node, inHead bool) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "head":
				inHead = true
			case "meta":
				if strings.EqualFold(attr(n, "http-equiv"), "Content-Security-Policy") {
					require.True(t, inHead, "the policy meta tag must be in <head>")
					require.Empty(t, policies, "one policy tag")
					policies = append(policies, attr(n, "content"))
				}
			case "script":
				if attr(n, "src") == "" {
					inline = append(inline, "an inline <script>")
				} else {
					require.NotEmpty(t, policies, "the policy comes before the first script")
				}
			case "style":
				inline = append(inline, "a <style> block")
			}
			for _, a := range n.Attr {
				if a.Key == "style" || strings.HasPrefix(a.Key, "on") {
					inline = append(inline, "an inline "+a.Key+" attribute on <"+n.Data+">")
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead)
		}
	}
	walk(doc, false)
	require.Equal(t, []string{console.ContentSecurityPolicy}, policies)
	require.Empty(t, inline, "the built page needs what its policy forbids")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
