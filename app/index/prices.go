package index

import (
	_ "embed"
	"encoding/json"
	"strings"
)

// pricesJSON is the price table usage estimates come from, kept with the pinned SDK version and dated.
//
//go:embed prices.json
var pricesJSON []byte

// PriceTable is what estimates are made with.
type PriceTable struct {
	SDK  string `json:"sdk"`
	Date string `json:"date"`
	// Source is where the prices were read, and when.
	Source string       `json:"source"`
	Note   string       `json:"note"`
	Models []ModelPrice `json:"models"`
}

// ModelPrice is USD per million tokens for the models whose name begins with Prefix.
type ModelPrice struct {
	Prefix     string  `json:"prefix"`
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheWrite float64 `json:"cacheWrite"`
	CacheRead  float64 `json:"cacheRead"`
}

// Prices is the table this Baton carries.
func Prices() PriceTable {
	var t PriceTable
	if err := json.Unmarshal(pricesJSON, &t); err != nil {
		panic("index: prices.json is not valid: " + err.Error()) // embedded and tested: never at run time
	}
	return t
}

// price is the longest prefix's entry for a model; ok false when none matches.
func (t PriceTable) price(model string) (ModelPrice, bool) {
	var best ModelPrice
	for _, p := range t.Models {
		if strings.HasPrefix(model, p.Prefix) && len(p.Prefix) > len(best.Prefix) {
			best = p
		}
	}
	return best, best.Prefix != ""
}

// estimate is what tokens of a model cost by the table; ok false for a model it has no price for.
func (t PriceTable) estimate(model string, input, output, cacheRead, cacheWrite int64) (float64, bool) {
	p, ok := t.price(model)
	if !ok {
		return 0, false
	}
	return (float64(input)*p.Input + float64(output)*p.Output + float64(cacheRead)*p.CacheRead + float64(cacheWrite)*p.CacheWrite) / 1e6, true
}
