package console

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/baton-console/baton/app/protocol"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestCheckImagesRefusesWhatTheAPIWouldRefuseWithAReason(t *testing.T) {
	png := protocol.PromptImage{MediaType: "image/png", Data: b64("\x89PNG\r\n\x1a\nrest")}
	webp := protocol.PromptImage{MediaType: "image/webp", Data: b64("RIFF\x00\x00\x00\x00WEBPVP8 ")}
	assert.NoError(t, checkImages(nil))
	assert.NoError(t, checkImages([]protocol.PromptImage{png, webp}))

	many := make([]protocol.PromptImage, maxPromptImages+1)
	for i := range many {
		many[i] = png
	}
	big := protocol.PromptImage{MediaType: "image/png", Data: b64("\x89PNG\r\n\x1a\n" + strings.Repeat("x", maxImageBytes))}
	for name, c := range map[string]struct {
		images []protocol.PromptImage
		want   string
	}{
		"an unsupported type":     {[]protocol.PromptImage{{MediaType: "image/bmp", Data: b64("BM")}}, "Image 1 is image/bmp; Claude reads PNG, JPEG, GIF and WebP images only."},
		"not base64":              {[]protocol.PromptImage{png, {MediaType: "image/png", Data: "%%%"}}, "Image 2 could not be read"},
		"another type's data":     {[]protocol.PromptImage{{MediaType: "image/jpeg", Data: png.Data}}, "Image 1 is not the image/jpeg it says it is"},
		"a RIFF that is not WebP": {[]protocol.PromptImage{{MediaType: "image/webp", Data: b64("RIFF\x00\x00\x00\x00WAVE")}}, "not the image/webp"},
		"over 5 MB":               {[]protocol.PromptImage{big}, "Claude takes images up to 5 MB"},
		"too many":                {many, "at most 20 images"},
	} {
		err := checkImages(c.images)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), c.want, name)
		}
	}
}
