package codedload

// must returns v, panicking on err: for calls whose arguments a test knows
// to be valid.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
