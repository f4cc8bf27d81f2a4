package layering

// A rule constrains the production imports of the packages its pattern matches (paths relative to the module;
// "x/..." is x and everything below it). Tests may cross layers to drive the real pieces; shipped code may not.
type rule struct {
	pkg    string   // the packages the rule is about
	except []string // patterns of packages the rule does not apply to
	only   []string // when set (even empty), the only packages of ours it may import directly
	never  []string // patterns of packages of ours it must not depend on, directly or through others
	why    string
}

// rules is the layering as the code has it: leaves at the bottom, the sidecar wire, the session runtime, the front
// ends (console with its transports serve and desktop, the CLI with runner), and app, the composition root, on top.
var rules = []rule{
	{pkg: "app/activity", only: []string{},
		why: "the event vocabulary every layer shares; anything it imported would be reachable from everywhere"},
	{pkg: "app/protocol", only: []string{"app/activity"},
		why: "the sidecar wire codec over activity's types; it knows nothing of who writes or reads the lines"},
	{pkg: "app/queue", only: []string{}, why: "a generic building block"},
	{pkg: "app/receipts", only: []string{}, why: "the receipt store is plain records on disk; sessions write it"},
	{pkg: "app/sessionmeta", only: []string{"app/internal/filelock"}, why: "names and pins on disk; the console reads and writes them"},
	{pkg: "app/internal/filelock", only: []string{}, why: "a generic building block: a lock across processes"},
	{pkg: "app/internal/debounce/...", only: []string{},
		why: "a generic building block under both watchers; it knows none of their beats"},
	{pkg: "app/sessionwatch", only: []string{"app/internal/debounce"},
		why: "watches transcripts on disk; callers decide what a change means"},
	{pkg: "app/changeswatch", only: []string{"app/internal/debounce"},
		why: "watches a checkout's files; the console decides what a change means"},
	{pkg: "app/gitwork", only: []string{"app/internal/filelock"},
		why: "session worktrees over the person's git; the CLI and the console ask it, it knows neither"},
	{pkg: "app/terminal", only: []string{},
		why: "PTYs and their programs stand alone: the console opens them for sessions and sign-in, never the other way"},
	{pkg: "app/filefind", only: []string{},
		why: "lists and ranks a folder's files for @-mentions; the console asks it, it knows no caller"},
	{pkg: "app/auth", only: []string{},
		why: "the sign-in probe stands alone: sessions, the console and the CLI ask it, never the other way"},
	{pkg: "app/sidecar", only: []string{"app/activity", "app/protocol", "app/queue"},
		why: "one child process and its wire; sessions are built on it, not it on them"},
	{pkg: "app/index", only: []string{"app/activity", "app/protocol", "app/sidecar"},
		why: "the transcript index maps through a sidecar and stores; sessions are handed it by the host, not built on it"},
	{pkg: "app/session/...", except: []string{"app/session/cancelbench", "app/session/runtimebench"},
		never: []string{"app/console", "app/serve", "app/desktop", "app/cli", "app/runner", "app/discovery"},
		why:   "the runtime serves every front end; a front end's types in it would tie them all to one"},
	{pkg: "app/discovery", never: []string{"app/session/...", "app/console", "app/serve", "app/desktop", "app/cli", "app/runner"},
		why: "model discovery asks a sidecar of its own; the console and the CLI ask discovery"},
	{pkg: "app/runner", never: []string{"app/cli", "app/console", "app/serve", "app/desktop"},
		why: "the headless engine under `baton run`; the CLI drives it and formats its result"},
	{pkg: "app/console", never: []string{"app/serve", "app/desktop", "app/cli", "app/runner"},
		why: "the console API both transports serve; serve (HTTP, WebSocket) and desktop (Wails) wrap it"},
	{pkg: "app/serve", never: []string{"app/desktop", "app/cli"},
		why: "one transport over the console; it knows nothing of the window or the CLI"},
	{pkg: "app/desktop", never: []string{"app/serve", "app/cli"},
		why: "the window's transport over the console; it knows nothing of serve or the CLI"},
	{pkg: "app/acp", never: []string{"app/console", "app/serve", "app/desktop", "app/cli", "app/runner"},
		why: "the Agent Client Protocol front end drives the session runtime itself; the CLI wires it to stdio"},
	{pkg: "app/cli", never: []string{"app/console", "app/serve", "app/desktop"},
		why: "the terminal front end runs sessions itself; the browser console is another front end, not a layer under it"},
	{pkg: "provision/...", never: []string{"app/..."},
		why: "provisioning installs claude before any of app runs and is usable on its own (provision/bench)"},
	{pkg: "app/...", never: []string{"app"},
		why: "app is the composition root: it wires the collaborators, and one that imported it would cycle back"},
	{pkg: "...", except: []string{"app/internal/...", "app/session/cancelbench", "app/session/runtimebench", "app/terminal/terminalbench"},
		never: []string{"app/internal/fakeapi", "app/internal/testenv", "app/internal/gittest"},
		why:   "the scripted API and test harness are for tests and benchmarks; the product never links them"},
}
