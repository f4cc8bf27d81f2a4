package provision

import (
	"time"
)

// Phase is the step a provisioning run is in.
type Phase string

// Phases, in the order a run passes through them (retrying and waiting may repeat).
const (
	PhaseWaiting     Phase = "waiting"     // another Baton process (or goroutine) is provisioning; HolderPID names it
	PhaseDownloading Phase = "downloading" // Bytes of Total from Source
	PhaseRetrying    Phase = "retrying"    // the last attempt failed transiently; Message says why
	PhaseFallback    Phase = "fallback"    // a source failed for good; the next one is tried
	PhaseUnpacking   Phase = "unpacking"   // decompressing or extracting into the final staging file
	PhaseInstalling  Phase = "installing"  // verified; being made executable and moved into place
	PhaseDone        Phase = "done"
)

// Progress is one event of a provisioning run. Bytes and Total count the file being transferred or unpacked.
type Progress struct {
	Phase     Phase   `json:"phase"`
	Source    string  `json:"source,omitempty"`   // "cdn" or "npm"
	Artifact  string  `json:"artifact,omitempty"` // "claude.zst", "claude", or the npm tarball's name
	URL       string  `json:"url,omitempty"`      // without credentials
	Bytes     int64   `json:"bytes"`
	Total     int64   `json:"total"` // 0 when unknown
	Rate      float64 `json:"rate"`  // bytes per second over the current attempt
	Attempt   int     `json:"attempt,omitempty"`
	HolderPID int     `json:"holderPid,omitempty"`
	Message   string  `json:"message,omitempty"`
}

// meter turns a stream of byte counts into throttled Progress events.
type meter struct {
	report    func(Progress)
	base      Progress
	interval  time.Duration
	started   time.Time
	startedAt int64 // bytes already present when the attempt began (a resumed download)
	last      time.Time
}

func newMeter(report func(Progress), base Progress, already int64, interval time.Duration) *meter {
	now := time.Now()
	m := &meter{report: report, base: base, interval: interval, started: now, startedAt: already}
	m.emit(already, now)
	return m
}

// update reports bytes done, at most once per interval.
func (m *meter) update(done int64) {
	now := time.Now()
	if now.Sub(m.last) < m.interval {
		return
	}
	m.emit(done, now)
}

// finish reports the final count unconditionally.
func (m *meter) finish(done int64) {
	m.emit(done, time.Now())
}

func (m *meter) emit(done int64, now time.Time) {
	m.last = now
	p := m.base
	p.Bytes = done
	if secs := now.Sub(m.started).Seconds(); secs > 0 {
		p.Rate = float64(done-m.startedAt) / secs
	}
	m.report(p)
}
