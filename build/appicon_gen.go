//go:build ignore

// Renders Baton's icon from geometry so it can be changed and re-rendered without an image editor:
//
//	go run build/appicon_gen.go
//
// writes build/appicon.png (1024 px: the Wails convention, the source for .ico and .icns) and
// build/linux/baton.png (256 px: the desktop entry's icon).
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

func main() {
	for _, out := range []struct {
		path string
		size int
	}{{"build/appicon.png", 1024}, {"build/linux/baton.png", 256}} {
		if err := write(out.path, render(out.size)); err != nil {
			log.Fatal(err)
		}
	}
}

func write(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return png.Encode(f, img)
}

type rgba struct{ r, g, b, a float64 }

func over(dst, src rgba) rgba {
	a := src.a + dst.a*(1-src.a)
	if a == 0 {
		return rgba{}
	}
	mix := func(s, d float64) float64 { return (s*src.a + d*dst.a*(1-src.a)) / a }
	return rgba{mix(src.r, dst.r), mix(src.g, dst.g), mix(src.b, dst.b), a}
}

// Shapes are signed distance functions on the unit square (negative inside).

func roundedSquare(x, y, half, radius float64) float64 {
	qx := math.Abs(x-0.5) - half + radius
	qy := math.Abs(y-0.5) - half + radius
	outside := math.Hypot(math.Max(qx, 0), math.Max(qy, 0))
	return outside + math.Min(math.Max(qx, qy), 0) - radius
}

func capsule(x, y, ax, ay, bx, by, r float64) float64 {
	px, py := x-ax, y-ay
	dx, dy := bx-ax, by-ay
	t := math.Max(0, math.Min(1, (px*dx+py*dy)/(dx*dx+dy*dy)))
	return math.Hypot(px-dx*t, py-dy*t) - r
}

func ring(x, y, cx, cy, r, width float64) float64 {
	return math.Abs(math.Hypot(x-cx, y-cy)-r) - width/2
}

// sample is the icon's colour at one point: a night-indigo tile, a relay baton handed across it (white grip,
// orange tip) and a faint arc for the hand-off.
func sample(x, y float64) rgba {
	var c rgba
	if roundedSquare(x, y, 0.46, 0.1) <= 0 {
		t := y
		c = rgba{0.23 - 0.12*t, 0.17 - 0.09*t, 0.55 - 0.28*t, 1}
	}
	if c.a == 0 {
		return c
	}
	if d := ring(x, y, 0.5, 0.5, 0.3, 0.035); d <= 0 && x+y < 0.95 {
		c = over(c, rgba{0.62, 0.55, 1, 0.45})
	}
	ax, ay, bx, by := 0.27, 0.73, 0.73, 0.27
	if capsule(x, y, ax, ay, bx, by, 0.085) <= 0 {
		c = over(c, rgba{0.96, 0.95, 1, 1})
		// The last third of the baton, towards the upper right, is the coloured tip.
		if (x-ax)*(bx-ax)+(y-ay)*(by-ay) > 0.62*((bx-ax)*(bx-ax)+(by-ay)*(by-ay)) {
			c = over(c, rgba{1, 0.54, 0.24, 1})
		}
	}
	return c
}

// render supersamples 4×4 per pixel for smooth edges.
func render(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const n = 4
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < n; sy++ {
				for sx := 0; sx < n; sx++ {
					s := sample((float64(px)+(float64(sx)+0.5)/n)/float64(size), (float64(py)+(float64(sy)+0.5)/n)/float64(size))
					r, g, b, a = r+s.r*s.a, g+s.g*s.a, b+s.b*s.a, a+s.a
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{
				R: uint8(math.Round(255 * r / a)), G: uint8(math.Round(255 * g / a)),
				B: uint8(math.Round(255 * b / a)), A: uint8(math.Round(255 * a / (n * n))),
			})
		}
	}
	return img
}
