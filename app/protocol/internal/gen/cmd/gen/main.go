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
	return writeAPIDoc(schema, console)
}

// writeAPIDoc renders API.md's generated tables in place.
func writeAPIDoc(schema, console []byte) error {
	have, err := os.ReadFile(gen.APIDocPath)
	if err != nil {
		return err
	}
	doc, err := gen.APIDoc(have, schema, console)
	if err != nil {
		return err
	}
	if err := os.WriteFile(gen.APIDocPath, doc, 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", gen.APIDocPath)
	return nil
}
