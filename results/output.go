package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrOutputExists: the output folder exists and --force was not given.
var ErrOutputExists = errors.New("output folder exists (use --force to replace it)")

// OutDir writes a run's files into a temporary folder beside the target
// and moves it into place only when Commit is called, so a failed run
// leaves nothing that looks like a result.
type OutDir struct {
	final string
	tmp   string
}

// NewOutDir prepares dir; an existing dir is refused unless force.
func NewOutDir(dir string, force bool) (*OutDir, error) {
	if _, err := os.Stat(dir); err == nil && !force {
		return nil, fmt.Errorf("%s: %w", dir, ErrOutputExists)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, err
	}
	return &OutDir{final: dir, tmp: tmp}, nil
}

// Write writes one file.
func (o *OutDir) Write(name string, data []byte) error {
	return os.WriteFile(filepath.Join(o.tmp, name), data, 0o644)
}

// Commit replaces the target folder with the written one.
func (o *OutDir) Commit() error {
	if err := os.RemoveAll(o.final); err != nil {
		return err
	}
	return os.Rename(o.tmp, o.final)
}

// Abort removes what was written.
func (o *OutDir) Abort() { os.RemoveAll(o.tmp) }

// WriteFileAtomic writes a single file through a temporary name.
func WriteFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
