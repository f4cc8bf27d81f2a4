// Command baton is the desktop console for Claude Code. With no arguments it opens the window; subcommands run
// the same runtime headless. Everything lives in package app; this file only hands over.
package main

import (
	"embed"
	"os"

	"github.com/baton-console/baton/app"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	os.Exit(app.Main(os.Args[1:], assets))
}
