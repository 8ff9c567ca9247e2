// Package plots is loadlab's house style on gonum/plot, and the contract
// between the figure generators of each area and the driver
// examples/figures.
//
// # House style
//
// New makes a plot with a title, axis labels (say the unit in the label,
// as "time (s)"), fixed font sizes and light grid lines. Series are
// numbered: series i has the same colour (Okabe–Ito, colour-blind safe),
// marker and dash pattern in every figure, so "coded" can keep one look
// across a paper's worth of figures.
//
//   - AddLine: measured values, line with markers.
//   - AddCurve: closed forms, line without markers.
//   - AddPoints: markers only.
//   - AddBand: a mean with a translucent confidence band.
//   - AddErrorBars: markers with vertical error bars.
//   - AddVLine, AddHLine: dashed reference lines across the data area.
//   - AddBars: grouped bars in data units.
//   - AddHeatMap with ColorBar: a perceptually uniform heat map.
//   - LogX, LogY, XRange, YRange, LegendAt, XTicks, YTicks: options of New.
//   - NominalX: category names on the x axis of grouped bars.
//
// # Labels that tell the truth
//
// Every axis of New carries a Ticker, whose labels are the exact values of
// their ticks (gonum's default ticker rounds them: a tick at 1.08 reads
// "1.1"), in one format per axis: Linear steps of 1, 2 or 5 × 10ᵏ, or on a
// log axis decades, 1-2-5 or powers of two. ParseTickLabel reads a label
// back and CheckTickLabels checks every label of a figure. Text, the text
// handler of every plot, draws C_{ba}, λ_{n} and 10^{−6} with true sub-
// and superscripts; PlainText strips that markup for CSV and logs.
//
// # Layout
//
// LegendOutside draws a plot with its legend in a column beside the axes,
// so that the legend cannot hide data; Stack draws plots one above the
// other with aligned data areas and one legend column; Panels lays out a
// grid; PlotsOf lists the plots of any of them. Save writes PNG (150 dpi),
// SVG, PDF or EPS by file extension. A 16 cm figure is 945 px wide in
// PNG; keep figures at most 27 cm (1600 px) wide, so that a README that
// shows them 900 px wide keeps the text legible.
//
// # Figures
//
// A Figure is a named generator: Make(Config) returns a Result holding
// the drawing, the data behind it as a Table (written as CSV) and
// Headlines for the driver's summary table. Generators derive every random
// stream from Config.Seed and shrink their sizes when Config.Quick is set.
//
// # Errors and panics
//
// Save returns an error wrapping loadlab.ErrInvalid for a canvas size that
// is not finite and positive and for a drawing that fails (gonum panics on
// data it cannot draw, such as a non-positive value on a log axis; Save
// returns it), one wrapping loadlab.ErrTooLarge for a raster canvas beyond
// the memory budget, and I/O errors. The Add helpers have no error result:
// they panic, as documented on each, on slices of different lengths, and
// gonum's plotters panic on a NaN or infinite data point (drop such points
// first). NewPanels panics on rows or cols below 1 or more than 65536
// panels, Save on a nil Drawer.
package plots
