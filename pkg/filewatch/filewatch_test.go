package filewatch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/filewatch/filewatchtest"
)

const wait = 10 * time.Second

func next(t *testing.T, w *Watcher) []string {
	t.Helper()
	select {
	case files := <-w.Changes():
		return files
	case <-time.After(wait):
		t.Fatal("no change reported")
		return nil
	}
}

// reportedNext checks the next report. A write made after one that should
// not be reported proves, by being reported first, that it was not.
func reportedNext(t *testing.T, w *Watcher, want []string) {
	t.Helper()
	assert.Equal(t, want, next(t, w))
}

func TestSecretVolumeSwap(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	vol, err := filewatchtest.NewSecretVolume(filepath.Join(t.TempDir(), "spoke", "hub-kubeconfig"),
		map[string][]byte{"kubeconfig": []byte("a"), "tls.crt": []byte("c1")})
	require.NoError(t, err)
	kubeconfig, other := vol.Path("kubeconfig"), filepath.Join(t.TempDir(), "other")
	w, err := Watch(ctx, kubeconfig, other)
	require.NoError(t, err)
	require.NotNil(t, w.fsw, "folders are watched, not polled")

	// A swap that leaves the watched file as it was is no change of it.
	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": []byte("a"), "tls.crt": []byte("c2")}))
	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": []byte("b"), "tls.crt": []byte("c2")}))
	reportedNext(t, w, []string{kubeconfig})

	// After the swap the new payload folder is watched too, and a file that
	// did not exist appears.
	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": []byte("c")}))
	reportedNext(t, w, []string{kubeconfig})
	require.NoError(t, os.WriteFile(other, []byte("x"), 0o600))
	reportedNext(t, w, []string{other})
}

func TestPlainFileRewrittenWithSameContent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(a, []byte("1"), 0o600))
	require.NoError(t, os.WriteFile(b, []byte("1"), 0o600))
	w, err := Watch(ctx, a, b)
	require.NoError(t, err)
	// Written whole, as editors and config tools do (os.WriteFile truncates
	// first, and the empty file in between would rightly count as a change).
	replace(t, a, "1") // same content: no change
	replace(t, b, "2")
	reportedNext(t, w, []string{b})
	require.NoError(t, os.Remove(a))
	reportedNext(t, w, []string{a})
}

// replace writes a file whole: a new file renamed over the old one.
func replace(t *testing.T, file, data string) {
	t.Helper()
	tmp := file + ".new"
	require.NoError(t, os.WriteFile(tmp, []byte(data), 0o600))
	require.NoError(t, os.Rename(tmp, file))
}

// Changes made while nobody receives are reported, each once.
func TestChangesWaitForTheReceiver(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	w, err := Watch(ctx, a, b)
	require.NoError(t, err)
	replace(t, a, "1")
	replace(t, b, "1")
	var files []string
	for len(files) < 2 {
		files = append(files, next(t, w)...)
	}
	assert.ElementsMatch(t, []string{a, b}, files, "each once")
}

func TestPollingWithoutWatchableFolder(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := filepath.Join(t.TempDir(), "later")
	file := filepath.Join(dir, "f")
	w, err := Watch(ctx, file) // its folder does not exist: polled
	require.NoError(t, err)
	assert.Nil(t, w.fsw)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	reportedNext(t, w, []string{file})
}

func TestUnreadableFileAtStart(t *testing.T) {
	_, err := Watch(context.Background(), t.TempDir()) // a folder cannot be read as a file
	require.Error(t, err)
}
