//go:build !linux

package hugepage

// Advise does nothing: transparent huge pages are Linux's.
func Advise[T any](s []T) {}
