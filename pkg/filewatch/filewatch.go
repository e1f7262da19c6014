// Package filewatch tells when the content of files changes: a kubeconfig
// whose credential was rotated, a file named by --terminate-on-files.
//
// It watches the folders holding the files (inotify, through fsnotify) and,
// on any event there, compares each file's content with what it last saw, so
// that a file replaced the way the kubelet updates a mounted Secret (every
// file of the volume is a symlink through `..data`, which is swapped to a new
// folder in one rename) counts as changed, and a write that leaves the
// content as it was does not. Where the folders cannot be watched, it checks
// every PollInterval instead.
package filewatch

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
	"k8s.io/klog/v2"
)

// PollInterval is how often the files are compared when their folders cannot
// be watched.
const PollInterval = 2 * time.Second

// content is what a file held when it was last read: a digest, or missing.
type content struct {
	missing bool
	digest  [sha256.Size]byte
}

func read(file string) (content, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return content{missing: true}, nil
	}
	if err != nil {
		return content{}, err
	}
	return content{digest: sha256.Sum256(data)}, nil
}

// Watcher reports the files whose content changed.
type Watcher struct {
	files   []string
	seen    map[string]content
	changes chan []string
	fsw     *fsnotify.Watcher // nil when polling
	dirs    map[string]bool   // watched folders
}

// Watch reads the files now, as the content to compare with, and watches
// them until ctx is done. A file that does not exist yet is watched too: its
// appearance is a change.
func Watch(ctx context.Context, files ...string) (*Watcher, error) {
	w := &Watcher{files: slices.Clone(files), seen: map[string]content{}, changes: make(chan []string), dirs: map[string]bool{}}
	for _, f := range w.files {
		c, err := read(f)
		if err != nil {
			return nil, err
		}
		w.seen[f] = c
	}
	logger := klog.FromContext(ctx).WithName("filewatch")
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		logger.Info("Cannot watch folders; checking files periodically instead", "interval", PollInterval, "err", err)
	} else {
		w.fsw = fsw
		if err := w.watchFolders(); err != nil {
			logger.Info("Cannot watch folders; checking files periodically instead", "interval", PollInterval, "err", err)
			_ = fsw.Close()
			w.fsw = nil
		}
	}
	go w.run(ctx, logger)
	return w, nil
}

// Changes receives, once per change, the files whose content differs from
// what they held when last reported (or when Watch was called). Nothing is
// lost while nobody receives: changes made meanwhile come in the next report.
func (w *Watcher) Changes() <-chan []string { return w.changes }

// Files are the watched files.
func (w *Watcher) Files() []string { return slices.Clone(w.files) }

func (w *Watcher) run(ctx context.Context, logger klog.Logger) {
	var events <-chan fsnotify.Event
	var errs <-chan error
	var tick <-chan time.Time
	if w.fsw != nil {
		defer func() { _ = w.fsw.Close() }()
		events, errs = w.fsw.Events, w.fsw.Errors
	} else {
		ticker := time.NewTicker(PollInterval)
		defer ticker.Stop()
		tick = ticker.C
	}
	var pending []string
	for {
		var out chan []string
		if len(pending) > 0 {
			out = w.changes
		}
		select {
		case <-ctx.Done():
			return
		case out <- pending:
			pending = nil
			continue
		case _, ok := <-events:
			if !ok {
				return
			}
		case err, ok := <-errs:
			if !ok {
				return
			}
			logger.V(2).Info("Watch error; comparing the files", "err", err) // e.g. an overflow: events were lost
		case <-tick:
		}
		if w.fsw != nil {
			if err := w.watchFolders(); err != nil {
				logger.V(2).Info("Cannot watch a folder", "err", err)
			}
		}
		for _, f := range w.compare(logger) {
			if !slices.Contains(pending, f) {
				pending = append(pending, f)
			}
		}
	}
}

// compare reads every file and returns those whose content changed, taking
// their new content as the one to compare with next.
func (w *Watcher) compare(logger klog.Logger) []string {
	var changed []string
	for _, f := range w.files {
		c, err := read(f)
		if err != nil {
			logger.V(2).Info("Cannot read a watched file", "file", f, "err", err)
			continue
		}
		if c != w.seen[f] {
			w.seen[f] = c
			changed = append(changed, f)
		}
	}
	return changed
}

// watchFolders watches the folder of each file and, for a symlink, the
// folder it resolves to, and stops watching folders no longer needed (the
// kubelet removes the old `..<timestamp>` folder after a swap).
func (w *Watcher) watchFolders() error {
	want := map[string]bool{}
	for _, f := range w.files {
		want[filepath.Dir(f)] = true
		if resolved, err := filepath.EvalSymlinks(f); err == nil {
			want[filepath.Dir(resolved)] = true
		}
	}
	var errs []error
	for dir := range w.dirs {
		if !want[dir] {
			_ = w.fsw.Remove(dir) // fails when the folder is gone, which removed the watch
			delete(w.dirs, dir)
		}
	}
	for dir := range want {
		if w.dirs[dir] {
			continue
		}
		if err := w.fsw.Add(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		w.dirs[dir] = true
	}
	return errors.Join(errs...)
}
