package badarg

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Case is one call of an entry point with one bad input, and the outcome
// its documentation promises.
type Case struct {
	// Func is the entry point: "F" for a function, "T.M" for a method
	// of T (pointer or value receiver). Coverage reads it.
	Func string
	// Name describes the bad input, for example "x[1] = NaN".
	Name string
	// Call makes the call and returns its error, if it has one.
	Call func() error

	// Err is the documented error: Call must return an error e with
	// errors.Is(e, Err). It is ignored when Panic is set.
	Err error
	// Panic says the call is documented to panic.
	Panic bool
	// Text, when not empty, must occur in the error message or in the
	// panic value (formatted with fmt.Sprint).
	Text string
}

// Check calls c.Call and reports how the outcome differs from the
// documented one, or nil when it agrees.
func (c Case) Check() error {
	if !c.Panic && c.Err == nil {
		return errors.New("the case documents neither an error nor a panic")
	}
	got, value, panicked := call(c.Call)
	switch {
	case panicked && !c.Panic:
		return fmt.Errorf("undocumented panic: %v", value)
	case panicked:
		if msg := fmt.Sprint(value); !strings.Contains(msg, c.Text) {
			return fmt.Errorf("panic %q does not contain %q", msg, c.Text)
		}
	case c.Panic:
		return fmt.Errorf("no panic (error: %v)", got)
	case got == nil:
		return fmt.Errorf("silent success, want an error wrapping %q", c.Err)
	case !errors.Is(got, c.Err):
		return fmt.Errorf("error %q does not wrap %q", got, c.Err)
	case !strings.Contains(got.Error(), c.Text):
		return fmt.Errorf("error %q does not contain %q", got, c.Text)
	}
	return nil
}

// call runs f and returns its error, or the value it panicked with.
func call(f func() error) (err error, value any, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			value, panicked = r, true
		}
	}()
	return f(), nil, false
}

// Run checks every case and reports each disagreement as a test error
// naming the entry point and the bad input.
func Run(t testing.TB, cases []Case) {
	t.Helper()
	for _, c := range cases {
		if err := c.Check(); err != nil {
			t.Errorf("%s, %s: %v", c.Func, c.Name, err)
		}
	}
}
