// Command gen writes the Go files generated from app/protocol/schema. Run from the repository root (scripts/gen-protocol).
package main

import (
	"fmt"
	"os"

	"github.com/baton-console/baton/app/protocol/internal/gen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen-protocol:", err)
		os.Exit(1)
	}
}

func run() error {
	schema, err := os.ReadFile(gen.SchemaPath)
	if err != nil {
		return fmt.Errorf("run from the repository root: %w", err)
	}
	console, err := os.ReadFile(gen.ConsolePath)
	if err != nil {
		return err
	}
	files, err := gen.Generate(schema, console)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", f.Path)
	}
	return nil
}
