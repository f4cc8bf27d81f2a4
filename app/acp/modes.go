package acp

import (
	"github.com/baton-console/baton/app/activity"
)

// modeNames are the permission modes as a client lists them.
func modeName(m activity.PermissionMode) (name, description string) {
	switch m {
	case activity.PermissionModeDefault:
		return "Default", "Ask before each tool that changes something"
	case activity.PermissionModeAcceptEdits:
		return "Accept edits", "File edits go ahead; other tools ask"
	case activity.PermissionModeBypassPermissions:
		return "Bypass permissions", "Every tool goes ahead without asking"
	case activity.PermissionModePlan:
		return "Plan", "Read and plan; change nothing"
	case activity.PermissionModeDontAsk:
		return "Don't ask", "Tools that would ask are denied"
	case activity.PermissionModeAuto:
		return "Auto", "Claude Code decides which tools need asking"
	}
	return string(m), ""
}

func modeState(current activity.PermissionMode) *sessionModeState {
	if current == "" {
		current = activity.PermissionModeDefault
	}
	st := &sessionModeState{CurrentModeID: string(current)}
	for _, m := range activity.PermissionModeValues {
		name, desc := modeName(m)
		st.AvailableModes = append(st.AvailableModes, sessionMode{ID: string(m), Name: name, Description: desc})
	}
	return st
}

// modelConfigID is the model's config option.
const modelConfigID = "model"

// defaultModel is the CLI's own default, as Baton's runtime names it.
const defaultModel = "default"

// modelOption is the model as a select config option: the CLI's default first, then what the CLI lists.
func modelOption(current string, models []activity.ModelEntry) configOption {
	if current == "" {
		current = defaultModel
	}
	opt := configOption{ID: modelConfigID, Name: "Model", Category: "model", Type: "select", CurrentValue: current,
		Options: []configSelectOption{{Value: defaultModel, Name: "Default", Description: "Claude Code's default model"}}}
	seen := map[string]bool{defaultModel: true}
	for _, m := range models {
		if seen[m.Value] {
			continue
		}
		seen[m.Value] = true
		opt.Options = append(opt.Options, configSelectOption{Value: m.Value, Name: m.DisplayName, Description: m.Description})
	}
	if !seen[current] {
		opt.Options = append(opt.Options, configSelectOption{Value: current, Name: current})
	}
	return opt
}
