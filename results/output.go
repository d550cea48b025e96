package results

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrOutputExists: the output folder exists and --force was not given.
var ErrOutputExists = errors.New("output folder exists and creditsim did not write it (use --force to replace it)")

// Replace says which existing output folder a command may replace.
// With Force, any folder the rule allows at all (CheckOutDir); without,
// an empty folder, or one creditsim wrote for the same Key: the command
// and the options that decide what the folder holds (e.g. "creditsim run
// baseline --quick"), so a quick look never replaces a full run. An
// empty Key accepts any folder creditsim wrote (a sweep's own points).
type Replace struct {
	Force bool
	Key   string
}

// OutputError is an output location the rule refuses, --force or not;
// errors.Is(err, ErrOutputExists) holds for it, so callers treat both as
// bad input.
type OutputError struct{ Msg string }

func (e *OutputError) Error() string { return e.Msg }

// Is makes an OutputError an ErrOutputExists.
func (e *OutputError) Is(target error) bool { return target == ErrOutputExists }

// Refused returns an OutputError with a formatted message.
func Refused(format string, a ...any) error { return &OutputError{fmt.Sprintf(format, a...)} }

// pending holds what a signal handler must remove before the process
// exits (RemovePending): the temporary folders being written and the
// lock files held, each with how it is removed.
var pending = struct {
	sync.Mutex
	paths map[string]func(string) error
}{paths: map[string]func(string) error{}}

// RemovePending removes every temporary folder still being written and
// every lock file this process holds (its lock goes with the process).
func RemovePending() {
	pending.Lock()
	defer pending.Unlock()
	for p, remove := range pending.paths {
		remove(p)
		delete(pending.paths, p)
	}
}

// pend records path as pending (on), to be removed by remove, or no
// longer pending.
func pend(path string, remove func(string) error, on bool) {
	pending.Lock()
	defer pending.Unlock()
	if on {
		pending.paths[path] = remove
	} else {
		delete(pending.paths, path)
	}
}

// track records a temporary folder being written (on) or done with.
func track(dir string, on bool) { pend(dir, os.RemoveAll, on) }

// trackLock records a lock file held (on) or given up.
func trackLock(path string, on bool) { pend(path, os.Remove, on) }

// OutDir writes a run's files into a temporary folder beside the target
// and moves it into place only when Commit is called, so a failed run
// leaves nothing that looks like a result.
type OutDir struct {
	final string
	tmp   string
	key   string // Replace.Key, written into Marker
}

// Marker is the file creditsim leaves in every run folder it writes. Its
// first line names the command that wrote the folder (Replace.Key): the
// same command may replace it without --force.
const Marker = ".creditsim-output"

// markerText is Marker's contents for key.
func markerText(key string) string {
	return "written by: " + key + "\nthe same command may replace this folder; any other needs --force\n"
}

// writtenBy is the key a Marker's contents name ("" for a folder an
// older creditsim wrote, whose marker names none).
func writtenBy(marker []byte) string {
	first, _, _ := strings.Cut(string(marker), "\n")
	key, ok := strings.CutPrefix(first, "written by: ")
	if !ok {
		return ""
	}
	return key
}

// NewOutDir prepares dir for a run's files (CheckOutDir says when an
// existing path may be replaced); the files go to a temporary folder
// beside it until Commit.
func NewOutDir(dir string, r Replace, protect ...string) (*OutDir, error) {
	if err := CheckOutDir(dir, r, protect...); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	// A killed run's temporary folder for the same place is stale.
	RemoveStaleTemps(parent, filepath.Base(dir))
	tmp, err := os.MkdirTemp(parent, tempPrefix(filepath.Base(dir)))
	if err != nil {
		return nil, err
	}
	track(tmp, true)
	err = os.Chmod(tmp, 0o755)
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, TempMarker), []byte("a creditsim run's folder in progress\n"), 0o644)
	}
	if err != nil {
		os.RemoveAll(tmp)
		track(tmp, false)
		return nil, err
	}
	return &OutDir{final: dir, tmp: tmp, key: r.Key}, nil
}

// TempMarker is the file creditsim puts in a temporary folder it makes,
// so that a later run removes only folders it can prove it made.
const TempMarker = ".creditsim-in-progress"

// tempPrefix is the name of base's temporary folders less their random
// digits (os.MkdirTemp's).
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// RemoveStaleTemps removes what killed runs left in parent for the place
// named base: folders named as creditsim names its temporary folders
// for it (the prefix, then only digits) that hold TempMarker. The names
// are compared, never used as a pattern: a base like "[a-z]*" matches
// nothing but itself.
func RemoveStaleTemps(parent, base string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" || !e.IsDir() {
			continue
		}
		d := filepath.Join(parent, e.Name())
		if fi, err := os.Lstat(filepath.Join(d, TempMarker)); err == nil && fi.Mode().IsRegular() {
			os.RemoveAll(d)
		}
	}
}

// CheckOutDir applies the output rule: a path that does not exist, an
// empty folder, or a folder creditsim wrote for the same command (its
// Marker names r.Key) may be used; any other folder only with r.Force;
// and nothing, even with r.Force, that is not a folder, that is the
// current directory or a parent of it, or that holds one of the protect
// paths (the input being run).
func CheckOutDir(dir string, r Replace, protect ...string) error {
	fi, err := os.Stat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return Refused("%s exists and is not a folder; creditsim never replaces it, even with --force", dir)
	}
	if isMountPoint(dir) {
		return Refused("%s is a mount point: creditsim puts its output in place by renaming a folder over it, which a mount point refuses; give a folder inside it", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if wd, err := os.Getwd(); err == nil && within(wd, abs) {
		return Refused("%s is the current directory or holds it; creditsim never replaces it, even with --force", dir)
	}
	for _, p := range protect {
		if ap, err := filepath.Abs(p); err == nil && within(ap, abs) {
			return Refused("%s holds %s, the input being run; creditsim never replaces it, even with --force", dir, p)
		}
	}
	if r.Force {
		return nil
	}
	if m, err := os.ReadFile(filepath.Join(dir, Marker)); err == nil {
		by := writtenBy(m)
		if r.Key == "" || by == r.Key {
			return nil
		}
		if by == "" {
			by = "an earlier creditsim"
		} else {
			by = "`" + by + "`"
		}
		return Refused("%s holds what %s wrote, and this is `%s`; give --force to replace it, or -o for another folder", dir, by, r.Key)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s: %w", dir, ErrOutputExists)
	}
	return nil
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// MarkFolder marks dir, a folder creditsim has just written files into
// in place (a table or statistics export), as written by key, so that
// the same command may replace it and any other needs --force
// (CheckOutDir).
func MarkFolder(dir, key string) error {
	return WriteFileAtomic(filepath.Join(dir, Marker), []byte(markerText(key)))
}

// Write writes one file.
func (o *OutDir) Write(name string, data []byte) error {
	return os.WriteFile(filepath.Join(o.tmp, name), data, 0o644)
}

// Stream writes one file through a buffer as fill writes it, so that a
// large table is never held whole in memory; the file is written if
// fill returns nil.
func (o *OutDir) Stream(name string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(filepath.Join(o.tmp, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 1<<16)
	err = fill(b)
	if err == nil {
		err = b.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Commit replaces the target folder with the written one, marked as
// creditsim's.
func (o *OutDir) Commit() error {
	if err := o.Write(Marker, []byte(markerText(o.key))); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(o.tmp, TempMarker)); err != nil {
		return err
	}
	if err := os.RemoveAll(o.final); err != nil {
		return err
	}
	err := os.Rename(o.tmp, o.final)
	track(o.tmp, false)
	return err
}

// Abort removes what was written.
func (o *OutDir) Abort() {
	os.RemoveAll(o.tmp)
	track(o.tmp, false)
}

// WriteFileAtomic writes a single file through a temporary name. It
// replaces only a regular file: renaming over a device, a link or a pipe
// would replace the node itself.
func WriteFileAtomic(path string, data []byte) error {
	return StreamFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// StreamFileAtomic writes a single file as fill writes it, through a
// temporary name that is renamed into place only if fill and the close
// succeed; like WriteFileAtomic, it replaces only a regular file.
func StreamFileAtomic(path string, fill func(w io.Writer) error) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return Refused("%s is not a regular file; creditsim replaces only regular files", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	// CreateTemp makes the file 0600; outputs are 0644, as WriteFile
	// makes them under the usual umask.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := fill(f); err != nil {
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
