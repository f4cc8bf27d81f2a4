package terminal

import (
	"errors"
	"os"
	"os/exec"
)

// errNoConPTY: Windows needs ConPTY, which this build does not carry yet.
var errNoConPTY = errors.New("terminals inside Baton are not supported on Windows yet; use your own terminal")

func startPTY(*exec.Cmd, uint16, uint16) (*os.File, error) { return nil, errNoConPTY }
func resizePTY(*os.File, uint16, uint16) error             { return errNoConPTY }
func hangUp(int)                                           {}
func killSession(int)                                      {}
func signalOf(*os.ProcessState) (int, bool)                { return 0, false }
