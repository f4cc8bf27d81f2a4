package console

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// listModels by its wire name: the answer's JSON shape (API.md), and discovery's failures as `unavailable` with
// the message for people.
func TestListModelsOverTheWire(t *testing.T) {
	var answer func(context.Context) (ModelList, error)
	api := New(Options{Sessions: session.NewManager(session.Config{}), ListModels: func(ctx context.Context) (ModelList, error) {
		return answer(ctx)
	}})
	defer Release(api)
	call := Methods(api)["listModels"]
	require.NotNil(t, call)

	answer = func(context.Context) (ModelList, error) {
		return ModelList{Account: "firstParty/api_key:0123456789abcdef",
			Models: []activity.ModelEntry{{Value: "default", DisplayName: "Default", Description: "Opus", ResolvedModel: "claude-opus-5-5"}}}, nil
	}
	got, err := call(json.RawMessage(`{}`))
	require.NoError(t, err)
	out, err := json.Marshal(got)
	require.NoError(t, err)
	require.JSONEq(t, `{"account":"firstParty/api_key:0123456789abcdef","models":[{"value":"default","displayName":"Default","description":"Opus","resolvedModel":"claude-opus-5-5"}]}`, string(out))

	answer = func(context.Context) (ModelList, error) {
		return ModelList{}, errors.Join(errors.New("after 20s"), discovery.ErrStillRunning)
	}
	_, err = call(nil)
	require.Equal(t, CodeUnavailable, AsError(err).Code)
	require.Contains(t, AsError(err).Message, "try again")

	none := New(Options{Sessions: session.NewManager(session.Config{})})
	defer Release(none)
	_, err = Methods(none)["listModels"](nil)
	require.Equal(t, CodeUnavailable, AsError(err).Code)
}
