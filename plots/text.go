package plots

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Text is the text handler of the house style: plain text in which
// "_{…}" sets a subscript and "^{…}" a superscript, at 70% of the size,
// so that labels say C_{ba}, λ_{n}, γ*_{H2} or 10^{−6} where the fonts
// have no Unicode sub- or superscript letters. A "_" or "^" not followed
// by "{" is printed as it is. New sets it on every text of a plot.
type Text struct {
	text.Plain
}

// richScale, subShift and supShift are the size of a sub- or
// superscript relative to the text, and how far its baseline moves,
// in units of the text's font size.
const (
	richScale = 0.7
	subShift  = 0.22
	supShift  = 0.38
)

// segment is a run of text at one baseline offset (-1 sub, 0, +1 sup).
type segment struct {
	s     string
	shift int
}

// parseRich splits one line into segments; Unicode subscript digits
// (ρ₂) become subscripts too, since the fonts space them widely.
func parseRich(line string) []segment {
	var out []segment
	for _, seg := range parseMarkup(line) {
		if seg.shift != 0 {
			out = append(out, seg)
			continue
		}
		out = append(out, splitSubDigits(seg.s)...)
	}
	return out
}

// splitSubDigits splits s at runs of the subscript digits ₀–₉.
func splitSubDigits(s string) []segment {
	var out []segment
	var cur []rune
	sub := false
	flush := func() {
		if len(cur) > 0 {
			shift := 0
			if sub {
				shift = -1
			}
			out = append(out, segment{s: string(cur), shift: shift})
			cur = cur[:0]
		}
	}
	for _, r := range s {
		isSub := r >= '₀' && r <= '₉'
		if isSub != sub {
			flush()
			sub = isSub
		}
		if isSub {
			r = '0' + (r - '₀')
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// parseMarkup splits one line at its _{…} and ^{…} markup.
func parseMarkup(line string) []segment {
	var out []segment
	for line != "" {
		i := strings.IndexAny(line, "_^")
		if i < 0 || i+1 >= len(line) || line[i+1] != '{' {
			if i < 0 || i+1 >= len(line) {
				out = append(out, segment{s: line})
				break
			}
			out = append(out, segment{s: line[:i+1]})
			line = line[i+1:]
			continue
		}
		end := strings.IndexByte(line[i:], '}')
		if end < 0 {
			out = append(out, segment{s: line})
			break
		}
		if i > 0 {
			out = append(out, segment{s: line[:i]})
		}
		shift := -1
		if line[i] == '^' {
			shift = 1
		}
		out = append(out, segment{s: line[i+2 : i+end], shift: shift})
		line = line[i+end+1:]
	}
	return out
}

// small returns the font of a sub- or superscript of fnt.
func small(fnt font.Font) font.Font {
	fnt.Size = vg.Length(richScale) * fnt.Size
	return fnt
}

// Box implements text.Handler.
func (h Text) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	face := h.Fonts.Lookup(fnt, fnt.Size)
	ext := face.Extents()
	height, depth = ext.Ascent, ext.Descent
	sub := h.Fonts.Lookup(small(fnt), small(fnt).Size)
	subExt := sub.Extents()
	for _, seg := range parseRich(txt) {
		if seg.shift == 0 {
			width += face.Width(seg.s)
			continue
		}
		width += sub.Width(seg.s)
		if seg.shift > 0 {
			height = max(height, vg.Length(supShift)*fnt.Size+subExt.Ascent)
		} else {
			depth = max(depth, vg.Length(subShift)*fnt.Size+subExt.Descent)
		}
	}
	return width, height, depth
}

// Draw implements text.Handler, as text.Plain does, segment by segment.
func (h Text) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if len(txt) == 0 {
		return
	}
	fnt := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	sub := h.Fonts.Lookup(small(sty.Font), small(sty.Font).Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := h.Lines(txt)
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - fnt.Extents().Ascent
	for i, line := range lines {
		w, _, _ := h.Box(line, sty.Font)
		at := pt.Add(vg.Point{X: vg.Length(sty.XAlign) * w, Y: vg.Length(len(lines)-i) * sty.Font.Size})
		for _, seg := range parseRich(line) {
			switch seg.shift {
			case 0:
				c.FillString(fnt, at, seg.s)
				at.X += fnt.Width(seg.s)
			default:
				dy := vg.Length(supShift) * sty.Font.Size
				if seg.shift < 0 {
					dy = -vg.Length(subShift) * sty.Font.Size
				}
				c.FillString(sub, at.Add(vg.Point{Y: dy}), seg.s)
				at.X += sub.Width(seg.s)
			}
		}
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

// houseText is the handler New installs.
func houseText() text.Handler {
	return Text{Plain: text.Plain{Fonts: font.DefaultCache}}
}

// useHouseText sets the house text handler on every text of p.
func useHouseText(p *plot.Plot) {
	h := houseText()
	p.TextHandler = h
	p.Title.TextStyle.Handler = h
	p.Legend.TextStyle.Handler = h
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Handler = h
		ax.Tick.Label.Handler = h
	}
}

// PlainText returns s with the rich-text markup of Text removed
// ("C_{ba}" → "C_ba", "10^{−6}" → "10^−6"), for CSV columns and logs.
func PlainText(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		for _, seg := range parseMarkup(line) {
			switch seg.shift {
			case -1:
				b.WriteString("_" + seg.s)
			case 1:
				b.WriteString("^" + seg.s)
			default:
				b.WriteString(seg.s)
			}
		}
	}
	return b.String()
}
