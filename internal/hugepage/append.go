package hugepage

// Append appends x to s as append does, except that when s is full the
// new backing array (a quarter larger, as append grows a large slice,
// and at least least elements) is advised before s's elements are copied
// into it, so that its first touches can fault in huge pages. It is for
// a large array that grows as a run goes on and is read at random.
func Append[T any](s []T, least int, x ...T) []T {
	if n := len(s) + len(x); n > cap(s) {
		grown := make([]T, len(s), max(n, cap(s)+cap(s)/4, least))
		Advise(grown)
		copy(grown, s)
		s = grown
	}
	return append(s, x...)
}
