package console

// ContentSecurityPolicy is the console page's policy. Everything the agent writes, every tool's output, file
// names and titles are untrusted, and in the window a script could call the Go bindings, so the page runs only
// its own bundled script (no inline script, no eval), fetches nothing from elsewhere (images only from itself
// or embedded data:/blob:), embeds no frames or plugins and posts no forms. style-src needs no 'unsafe-inline':
// the stylesheet is a file, and React sets its few computed styles (gauges) through the CSSOM, which CSP
// does not govern. connect-src 'self' covers browser mode's WebSocket (same host and port; CSP Level 3).
//
// The window carries it as a meta tag in frontend/index.html (TestBuiltPageCarriesThePolicy checks the built
// copy says exactly this); the Wails runtime scripts it injects are files from the page's own origin and call
// into Go by message handlers, not fetches. baton serve sends it as a header, adding frame-ancestors (which a
// meta tag cannot carry).
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"font-src 'self'; connect-src 'self'; media-src 'none'; frame-src 'none'; worker-src 'none'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'"
