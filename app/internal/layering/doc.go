// Package layering holds the test that keeps the module's import layering true: which of our packages may import
// which. It has no code of its own; the rules and their reasons are in layering_test.go.
package layering
