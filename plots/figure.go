package plots

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	_ "gonum.org/v1/plot/vg/vgpdf" // register pdf
	_ "gonum.org/v1/plot/vg/vgsvg" // register svg
)

// PNGDPI is the resolution of PNG files written by Save.
const PNGDPI = 150

// Drawer is anything that draws itself on a canvas: a *plot.Plot, or a
// multi-panel *Panels.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Config is what a figure generator is told by the driver
// (examples/figures).
type Config struct {
	// Quick asks for small sizes: every figure together must finish in
	// under a minute on two cores.
	Quick bool
	// Seed is the root seed; generators derive all their random streams
	// from it, so a figure is a pure function of (Quick, Seed).
	Seed uint64
	// Progress receives human-readable progress lines. It is never nil
	// when called by the driver; generators use Config.Logf.
	Progress io.Writer
}

// Logf writes one progress line to c.Progress, if set.
func (c Config) Logf(format string, args ...any) {
	if c.Progress == nil {
		return
	}
	fmt.Fprintf(c.Progress, format+"\n", args...)
}

// Headline is one row of the driver's summary table: a number the figure
// establishes, the reference it is checked against and the range that
// reference allows, so that every row can fail. Make rows with Near or
// Within.
type Headline struct {
	Name      string  // what was measured, e.g. "K_f(torus 1000x1000)"
	Value     float64 // the measured or computed value
	Reference string  // where the accepted range comes from, e.g. "closed form" or "spec §8 J"
	// Lo and Hi bound the values that agree with the reference
	// (inclusive); a NaN Value never agrees.
	Lo, Hi float64
}

// Near returns a headline that agrees when |value − want| ≤ tol.
func Near(name string, value, want, tol float64, reference string) Headline {
	return Headline{Name: name, Value: value, Reference: reference, Lo: want - tol, Hi: want + tol}
}

// Within returns a headline that agrees when lo ≤ value ≤ hi (either
// end may be infinite).
func Within(name string, value, lo, hi float64, reference string) Headline {
	return Headline{Name: name, Value: value, Reference: reference, Lo: lo, Hi: hi}
}

// Agrees reports whether the value lies in [Lo, Hi].
func (h Headline) Agrees() bool { return h.Value >= h.Lo && h.Value <= h.Hi }

// Status is "agrees" or "outside".
func (h Headline) Status() string {
	if h.Agrees() {
		return "agrees"
	}
	return "outside"
}

// Range writes the accepted range compactly: "[a, b]", "≤ b", "≥ a", or
// "m ± h" for a narrow range, with as many digits as it needs.
func (h Headline) Range() string {
	switch {
	case math.IsInf(h.Lo, -1) && math.IsInf(h.Hi, 1):
		return "any"
	case math.IsInf(h.Lo, -1):
		return "≤ " + FormatValue(h.Hi)
	case math.IsInf(h.Hi, 1):
		return "≥ " + FormatValue(h.Lo)
	case h.Lo == h.Hi:
		return "= " + formatDigits(h.Lo, h.digits())
	}
	if mid, half := (h.Lo+h.Hi)/2, (h.Hi-h.Lo)/2; half < 1e-3*math.Abs(mid) {
		return formatDigits(mid, h.digits()) + " ± " + strconv.FormatFloat(half, 'g', 2, 64)
	}
	return "[" + FormatValue(h.Lo) + ", " + FormatValue(h.Hi) + "]"
}

// FormattedValue writes Value with the digits its range needs to be
// compared with it (four at least).
func (h Headline) FormattedValue() string { return formatDigits(h.Value, h.digits()) }

// digits is the number of significant digits that resolve the range.
func (h Headline) digits() int {
	mid, half := math.Abs(h.Lo+h.Hi)/2, (h.Hi-h.Lo)/2
	if math.IsInf(mid, 0) || math.IsNaN(mid) || half <= 0 || half >= 1e-3*mid {
		return 4
	}
	return min(15, 2+int(math.Ceil(math.Log10(mid/half))))
}

// FormatValue writes v with four significant digits (as %.4g).
func FormatValue(v float64) string { return formatDigits(v, 4) }

func formatDigits(v float64, digits int) string {
	return strconv.FormatFloat(v, 'g', digits, 64)
}

// Result is what a figure generator returns.
type Result struct {
	// Plot is the figure. Width and Height default to 16 cm × 11 cm.
	Plot          Drawer
	Width, Height vg.Length
	// Data is the data behind the figure, written as CSV.
	Data *Table
	// Headlines are printed in the driver's summary table.
	Headlines []Headline
}

// Figure is one named figure generator.
type Figure struct {
	// Name is stable and lower-case with dashes, prefixed by the area,
	// e.g. "graphs-kirchhoff". Files are written as Name.png, Name.svg,
	// Name.csv.
	Name string
	// Caption is one sentence for the README gallery and -list.
	Caption string
	// Make computes the figure.
	Make func(cfg Config) (*Result, error)
	// Seconds is the rough wall time of a full-mode run on two idle
	// cores, which the driver prints before it starts the figure.
	Seconds float64
}

// DefaultWidth and DefaultHeight are the size of a single-panel figure.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 11 * vg.Centimeter
)

// Save draws d into a w×h canvas and writes it to path. The format is
// taken from the file extension (png, svg, pdf, eps, jpg, tif). It
// returns an error wrapping loadlab.ErrInvalid if w or h is not finite
// and positive, the extension names no format, or drawing fails (gonum
// panics on data it cannot draw,
// such as a non-positive value on a log axis: Save returns that as the
// error), and one wrapping loadlab.ErrTooLarge if a raster image of
// w×h would exceed the memory budget. It panics if d is nil.
func Save(d Drawer, w, h vg.Length, path string) (err error) {
	if d == nil {
		panic("plots: Save: nil Drawer d")
	}
	if err := checkCanvas(w, h, path); err != nil {
		return err
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	var c vg.CanvasWriterTo
	if format == "png" {
		// The default 96 dpi looks coarse in a README; 150 dpi keeps
		// a 16 cm figure near 950 px wide.
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))}
	} else {
		c, err = draw.NewFormattedCanvas(w, h, format)
		if err != nil {
			return loadlab.Invalid("plots", "Save(%s): %v", path, err)
		}
	}
	if err := drawChecked(d, draw.New(c), path); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if e := f.Close(); err == nil {
			err = e
		}
	}()
	_, err = c.WriteTo(f)
	return err
}

// checkCanvas validates the size of a canvas: finite and positive, and
// for a raster format at most size.MaxBytes of 4-byte pixels at the
// resolution Save uses (PNGDPI for png, gonum's 96 dpi otherwise).
func checkCanvas(w, h vg.Length, path string) error {
	if !(w > 0) || !(h > 0) || math.IsInf(float64(w), 1) || math.IsInf(float64(h), 1) {
		return loadlab.Invalid("plots", "Save(%s): w = %v, h = %v, want finite and > 0", path, w, h)
	}
	dpi := 96.0
	if strings.EqualFold(filepath.Ext(path), ".png") {
		dpi = PNGDPI
	}
	px := float64(w.Points()) / 72 * dpi * float64(h.Points()) / 72 * dpi
	if px*4 > size.MaxBytes {
		return loadlab.TooLarge("plots", "Save(%s): a %v × %v canvas is %.3g pixels, more than %d GiB", path, w, h, px, size.MaxBytes>>30)
	}
	return nil
}

// drawChecked draws d on c and returns a panic of the drawing (gonum's
// plotters panic on data they cannot draw) as an error naming path.
func drawChecked(d Drawer, c draw.Canvas, path string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = loadlab.Invalid("plots", "Save(%s): drawing failed: %v", path, r)
		}
	}()
	drawAny(d, c)
	return nil
}

// Table is the data behind a figure in long or wide form: named columns,
// rows of values. Values are float64, int, string or anything with a
// String method; floats are written with full precision.
type Table struct {
	Columns []string
	Rows    [][]any
}

// NewTable returns an empty table with the given column names.
func NewTable(columns ...string) *Table {
	return &Table{Columns: columns}
}

// Add appends one row. It panics if the number of values differs from the
// number of columns (a programmer error).
func (t *Table) Add(values ...any) {
	if len(values) != len(t.Columns) {
		panic(fmt.Sprintf("plots: table row has %d values for %d columns", len(values), len(t.Columns)))
	}
	t.Rows = append(t.Rows, values)
}

// WriteCSV writes the table as RFC 4180 CSV with a header line. It panics
// if w is nil.
func (t *Table) WriteCSV(w io.Writer) error {
	if w == nil {
		panic("plots: Table.WriteCSV: w is nil")
	}
	var b strings.Builder
	writeRecord(&b, t.Columns)
	rec := make([]string, len(t.Columns))
	for _, row := range t.Rows {
		for i, v := range row {
			rec[i] = formatCell(v)
		}
		writeRecord(&b, rec)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func formatCell(v any) string {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case int:
		return strconv.Itoa(x)
	case string:
		return x
	case fmt.Stringer:
		return x.String()
	default:
		return fmt.Sprint(x)
	}
}

func writeRecord(b *strings.Builder, rec []string) {
	for i, s := range rec {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.ContainsAny(s, ",\"\n\r") {
			b.WriteByte('"')
			b.WriteString(strings.ReplaceAll(s, `"`, `""`))
			b.WriteByte('"')
		} else {
			b.WriteString(s)
		}
	}
	b.WriteString("\n")
}
