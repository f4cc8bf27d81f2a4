package console

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Claude Code's own answer to resuming at a message before a /compact (seen with the real CLI in
// sidecar/test/e2e/rewindCompact.test.ts) becomes a sentence a person can act on.
func TestRewindErrorBeforeCompaction(t *testing.T) {
	raw := fmt.Errorf("start session: %w", errors.New("Claude Code did not start: Claude Code returned an error result: "+
		"No message found with message.uuid of: e1682fee-62c3-43d5-ad5e-e4dd584dd2cf"))
	got := AsError(rewindError(raw))
	if got.Code != CodeBadRequest || !strings.Contains(got.Message, "before a /compact") {
		t.Fatalf("rewindError = %+v, want a bad request naming the /compact", got)
	}
	other := errors.New("the folder is gone")
	if rewindError(other) != other || rewindError(nil) != nil {
		t.Fatal("rewindError changed an error that is not about compaction")
	}
}
