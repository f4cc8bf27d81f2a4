package fakeapi

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Plan-limit windows as the API names them in its unified rate-limit headers.
const (
	WindowFiveHour = "five_hour"
	WindowSevenDay = "seven_day"
)

// windowInfix is a window's part of its header names (anthropic-ratelimit-unified-5h-reset).
var windowInfix = map[string]string{WindowFiveHour: "5h", WindowSevenDay: "7d"}

// PlanWindow is one window's state as a subscription's responses carry it.
type PlanWindow struct {
	Name string // WindowFiveHour or WindowSevenDay
	// Utilization is the share used, 0 to 1; Surpassed, when above 0, is the warning threshold it passed.
	Utilization, Surpassed float64
	ResetsAt               time.Time
}

// RateLimitHeaders are the unified rate-limit headers the API sends a plan's requests, as the claude CLI reads
// them: the overall status (allowed, allowed_warning or rejected), the window that decides it (the
// representative claim) and when it resets, and each window's utilization and reset. A rejected 429 carries
// the same headers.
func RateLimitHeaders(status string, claim PlanWindow, windows ...PlanWindow) http.Header {
	h := http.Header{}
	h.Set("anthropic-ratelimit-unified-status", status)
	h.Set("anthropic-ratelimit-unified-representative-claim", claim.Name)
	h.Set("anthropic-ratelimit-unified-reset", strconv.FormatInt(claim.ResetsAt.Unix(), 10))
	for _, w := range append([]PlanWindow{claim}, windows...) {
		infix := windowInfix[w.Name]
		if infix == "" {
			continue
		}
		prefix := "anthropic-ratelimit-unified-" + infix + "-"
		h.Set(prefix+"utilization", fmt.Sprintf("%g", w.Utilization))
		h.Set(prefix+"reset", strconv.FormatInt(w.ResetsAt.Unix(), 10))
		if w.Surpassed > 0 {
			h.Set(prefix+"surpassed-threshold", fmt.Sprintf("%g", w.Surpassed))
		}
	}
	return h
}

// Markers of DefaultScript for a plan's limits (script.go).
const (
	PlanWarningMarker  = "[plan-warning]"
	PlanRejectedMarker = "[plan-rejected]"
)

// planWindows are the scripted plan's windows at now: the 5-hour one 92 % used, past the 90 % warning.
func planWindows(now time.Time) (fiveHour, week PlanWindow) {
	return PlanWindow{Name: WindowFiveHour, Utilization: 0.92, Surpassed: 0.9, ResetsAt: now.Add(90 * time.Minute)},
		PlanWindow{Name: WindowSevenDay, Utilization: 0.4, ResetsAt: now.Add(72 * time.Hour)}
}

func planWarning(now time.Time) http.Header {
	fiveHour, week := planWindows(now)
	return RateLimitHeaders("allowed_warning", fiveHour, week)
}

func planRejected(now time.Time) Reply {
	fiveHour, week := planWindows(now)
	fiveHour.Utilization = 1
	return Reply{Status: http.StatusTooManyRequests, Headers: RateLimitHeaders("rejected", fiveHour, week)}
}
