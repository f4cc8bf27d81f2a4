package session

import "time"

// CancelBudgets bound a cancel of a running turn: how long Claude Code may take to acknowledge the interrupt,
// then how long its stopped query may take to settle after its transport was closed. Zero means the default; use
// SkipInterrupt for no interrupt wait at all.
type CancelBudgets struct {
	Interrupt time.Duration
	Drain     time.Duration
	// SkipInterrupt closes the query at once (a second Ctrl-C): the interrupt budget is zero.
	SkipInterrupt bool
}

// Host defaults for both budgets (PROTOCOL.md, "Cancel").
const (
	DefaultInterruptBudget = 3 * time.Second
	DefaultDrainBudget     = 3 * time.Second
	// cancelAnswerSlack is how long past the budgets the host waits for the sidecar's answer before it reports
	// the cancel as failed (a dead or wedged sidecar), so a cancel never stays pending.
	cancelAnswerSlack = 5 * time.Second
)

// DefaultCancelBudgets are the host's defaults.
var DefaultCancelBudgets = CancelBudgets{Interrupt: DefaultInterruptBudget, Drain: DefaultDrainBudget}

func (b CancelBudgets) orDefaults() CancelBudgets {
	if b.SkipInterrupt {
		b.Interrupt = 0
	} else if b.Interrupt <= 0 {
		b.Interrupt = DefaultInterruptBudget
	}
	if b.Drain <= 0 {
		b.Drain = DefaultDrainBudget
	}
	return b
}
