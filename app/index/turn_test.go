package index

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTurnOfReadsOnlyTheTopLevel(t *testing.T) {
	for event, want := range map[string]string{
		`{"kind":"tool.started","session":"s","turn":"t-1","time":"x"}`:                          "t-1",
		`{"kind":"unknown","session":"s","raw":{"turn":"nested","a":[1,"]}"]},"time":"x"}`:       "",
		`{"kind":"unknown","raw":{"turn":"nested"}, "turn" : "t-2"}`:                             "t-2",
		`{"kind":"message.completed","text":"say \"turn\":\"no\"","turn":"t-3","n":12,"b":true}`: "t-3",
		`{"kind":"session.started"}`: "",
		`not json`:                   "",
	} {
		require.Equal(t, want, turnOf([]byte(event)), event)
	}
}
