// Package filewatchtest lays files out the way the kubelet mounts a Secret
// and updates them the way it does, for tests of what reads such files.
package filewatchtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// SecretVolume is a folder laid out like a mounted Secret volume: each file
// is a symlink `<name> -> ..data/<name>`, and `..data` is a symlink to a
// timestamped folder holding the contents. Update replaces every file at once
// by swapping `..data` in one rename, as the kubelet's atomic writer does.
type SecretVolume struct {
	Dir string

	mu      sync.Mutex
	version int
}

// NewSecretVolume creates dir (and its parents) with files in it.
func NewSecretVolume(dir string, files map[string][]byte) (*SecretVolume, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	v := &SecretVolume{Dir: dir}
	if err := v.Update(files); err != nil {
		return nil, err
	}
	return v, nil
}

// Path is the path of a file of the volume, e.g. <dir>/kubeconfig.
func (v *SecretVolume) Path(name string) string { return filepath.Join(v.Dir, name) }

// Update writes files into a new timestamped folder, points `..data` at it
// with one rename and removes the previous folder. Files missing from files
// disappear.
func (v *SecretVolume) Update(files map[string][]byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.version++
	payload := fmt.Sprintf("..v%d", v.version)
	if err := os.Mkdir(filepath.Join(v.Dir, payload), 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(v.Dir, payload, name), files[name], 0o600); err != nil {
			return err
		}
	}
	previous, _ := os.Readlink(filepath.Join(v.Dir, "..data"))
	tmp := filepath.Join(v.Dir, "..data_tmp")
	if err := os.Symlink(payload, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(v.Dir, "..data")); err != nil {
		return err
	}
	for _, name := range names {
		link := filepath.Join(v.Dir, name)
		if _, err := os.Lstat(link); err == nil {
			continue
		}
		if err := os.Symlink(filepath.Join("..data", name), link); err != nil {
			return err
		}
	}
	if previous != "" {
		return os.RemoveAll(filepath.Join(v.Dir, previous))
	}
	return nil
}
