// Package filelock holds an exclusive lock on a file across processes: for what two Baton processes (or two
// sessions of one) must never do at once.
package filelock
