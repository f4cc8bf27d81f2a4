package discovery

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The cache policy on its own, with a scripted Discover standing in for the hidden query (hiddenquery_test.go
// runs the real one): each call is recorded with its account and answered when the test says so.
type script struct {
	mu      sync.Mutex
	account Account
	calls   []string // account keys, one per discovery
	answer  func(ctx context.Context, n int) ([]activity.ModelEntry, error)
}

func (s *script) setAccount(a Account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.account = a
}

func (s *script) current() Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.account
}

func (s *script) discover(ctx context.Context) ([]activity.ModelEntry, error) {
	s.mu.Lock()
	s.calls = append(s.calls, s.account.Key())
	n := len(s.calls)
	s.mu.Unlock()
	return s.answer(ctx, n)
}

func (s *script) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

func models(values ...string) []activity.ModelEntry {
	out := make([]activity.ModelEntry, len(values))
	for i, v := range values {
		out[i] = activity.ModelEntry{Value: v, DisplayName: v}
	}
	return out
}

var (
	apiKeyAccount = Account{Provider: "firstParty", Status: auth.StatusSignedIn, Method: auth.MethodAPIKey, KeySource: "ANTHROPIC_API_KEY"}
	maxAccount    = Account{Provider: "firstParty", Status: auth.StatusSignedIn, Method: auth.MethodSubscription, Email: "a@example.com"}
)

func newService(t *testing.T, s *script, wait time.Duration) *Service {
	t.Helper()
	svc := New(Options{Discover: s.discover, Account: s.current, Wait: wait, Logger: zerolog.Nop()})
	t.Cleanup(svc.Close)
	return svc
}

func list(t *testing.T, svc *Service) (Models, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return svc.List(ctx)
}

func TestCacheIsPerAccount(t *testing.T) {
	s := &script{account: apiKeyAccount, answer: func(_ context.Context, n int) ([]activity.ModelEntry, error) {
		if n == 1 {
			return models("default", "sonnet"), nil
		}
		return models("default", "opus", "haiku"), nil
	}}
	svc := newService(t, s, time.Minute)

	first, err := list(t, svc)
	require.NoError(t, err)
	require.Equal(t, apiKeyAccount.Key(), first.Account)
	require.Equal(t, models("default", "sonnet"), first.Models)
	again, err := list(t, svc)
	require.NoError(t, err)
	require.Equal(t, first, again)
	require.Equal(t, 1, s.count(), "the second request was answered from the cache")

	s.setAccount(maxAccount)
	other, err := list(t, svc)
	require.NoError(t, err)
	require.Equal(t, maxAccount.Key(), other.Account)
	require.Equal(t, models("default", "opus", "haiku"), other.Models)
	require.Equal(t, 2, s.count())

	s.setAccount(apiKeyAccount)
	back, err := list(t, svc)
	require.NoError(t, err)
	require.Equal(t, first, back, "each account keeps its own entry")
	require.Equal(t, 2, s.count())
}

func TestSupersedeClearsTheCache(t *testing.T) {
	s := &script{account: apiKeyAccount, answer: func(context.Context, int) ([]activity.ModelEntry, error) {
		return models("default"), nil
	}}
	svc := newService(t, s, time.Minute)
	_, err := list(t, svc)
	require.NoError(t, err)
	svc.Supersede()
	_, err = list(t, svc)
	require.NoError(t, err)
	require.Equal(t, 2, s.count(), "a sign-in change makes the next request discover again")
}

func TestFollowAuthSupersedesOnEveryChangeButTheFirst(t *testing.T) {
	s := &script{account: apiKeyAccount, answer: func(context.Context, int) ([]activity.ModelEntry, error) {
		return models("default"), nil
	}}
	svc := newService(t, s, time.Minute)
	updates := make(chan auth.State)
	followed := make(chan struct{})
	go func() { svc.FollowAuth(updates); close(followed) }()

	updates <- auth.State{Status: auth.StatusSignedIn} // the current state, delivered first by Subscribe
	_, err := list(t, svc)
	require.NoError(t, err)
	_, err = list(t, svc)
	require.NoError(t, err)
	require.Equal(t, 1, s.count())

	updates <- auth.State{Status: auth.StatusSignedOut} // a change
	// FollowAuth has taken the change once the unbuffered send returned; the supersede follows at once.
	require.Eventually(t, func() bool {
		_, err := list(t, svc)
		return err == nil && s.count() == 2
	}, 10*time.Second, 10*time.Millisecond)
	close(updates)
	<-followed
}

// A request gives up after its wait; the discovery carries on (its context is not the request's) and fills the
// cache for the next request.
func TestWaitIsCappedButTheDiscoveryCarriesOn(t *testing.T) {
	release := make(chan struct{})
	sawCancel := make(chan bool, 1)
	s := &script{account: apiKeyAccount, answer: func(ctx context.Context, _ int) ([]activity.ModelEntry, error) {
		<-release
		sawCancel <- ctx.Err() != nil
		return models("default", "haiku"), nil
	}}
	svc := newService(t, s, 50*time.Millisecond)

	_, err := list(t, svc)
	require.ErrorIs(t, err, ErrStillRunning)
	require.Contains(t, err.Error(), "still reporting its models; try again")
	_, err = list(t, svc)
	require.ErrorIs(t, err, ErrStillRunning)
	require.Equal(t, 1, s.count(), "a second request joins the discovery under way")

	close(release)
	require.False(t, <-sawCancel, "the discovery's context outlived the requests that gave up")
	require.Eventually(t, func() bool {
		got, err := list(t, svc)
		return err == nil && len(got.Models) == 2
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, 1, s.count(), "the late answer was cached")
}

func TestFailuresAreNotCached(t *testing.T) {
	s := &script{account: apiKeyAccount, answer: func(_ context.Context, n int) ([]activity.ModelEntry, error) {
		if n == 1 {
			return nil, errors.New("claude is not installed yet")
		}
		return models("default"), nil
	}}
	svc := newService(t, s, time.Minute)
	_, err := list(t, svc)
	require.ErrorContains(t, err, "discover the models: claude is not installed yet")
	got, err := list(t, svc)
	require.NoError(t, err, "a failure stays retryable")
	require.Equal(t, models("default"), got.Models)
	require.Equal(t, 2, s.count())
}

// A discovery that began before a sign-in change answers the requests waiting on it but is not cached.
func TestADiscoverySupersededMidwayIsNotCached(t *testing.T) {
	release := make(chan struct{})
	s := &script{account: apiKeyAccount, answer: func(_ context.Context, n int) ([]activity.ModelEntry, error) {
		if n == 1 {
			<-release
		}
		return models("default"), nil
	}}
	svc := newService(t, s, time.Minute)
	waiting := make(chan error, 1)
	go func() { _, err := list(t, svc); waiting <- err }()
	require.Eventually(t, func() bool { return s.count() == 1 }, 10*time.Second, time.Millisecond)
	svc.Supersede()
	close(release)
	require.NoError(t, <-waiting)
	_, err := list(t, svc)
	require.NoError(t, err)
	require.Equal(t, 2, s.count(), "the superseded answer was not kept")
}

func TestCloseStopsBackgroundDiscoveries(t *testing.T) {
	s := &script{account: apiKeyAccount, answer: func(ctx context.Context, _ int) ([]activity.ModelEntry, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	svc := New(Options{Discover: s.discover, Account: s.current, Wait: 10 * time.Millisecond, Logger: zerolog.Nop()})
	_, err := list(t, svc)
	require.ErrorIs(t, err, ErrStillRunning)
	svc.Close() // returns only once the discovery saw its context end
	_, err = list(t, svc)
	require.ErrorIs(t, err, ErrClosed)
}

func TestRequestContextEndsTheWaitOnly(t *testing.T) {
	release := make(chan struct{})
	s := &script{account: apiKeyAccount, answer: func(context.Context, int) ([]activity.ModelEntry, error) {
		<-release
		return models("default"), nil
	}}
	svc := newService(t, s, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := svc.List(ctx)
	require.ErrorIs(t, err, context.Canceled)
	close(release)
	require.Eventually(t, func() bool { got, err := list(t, svc); return err == nil && len(got.Models) == 1 },
		10*time.Second, 10*time.Millisecond)
	require.Equal(t, 1, s.count())
}
