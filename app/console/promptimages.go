package console

import (
	"bytes"
	"encoding/base64"

	"github.com/baton-console/baton/app/protocol"
)

// Bounds of a prompt's images: the Messages API rejects an image over 5 MB, and the prompt travels to the
// sidecar as one line of at most protocol.MaxLineBytes, so all of them together must leave room for the text.
const (
	maxImageBytes      = 5 << 20
	maxPromptImages    = 20
	maxPromptImageData = protocol.MaxLineBytes - 512<<10
)

// imageMagic is how each type the API takes begins, so an image is never sent under another type's name (the
// API refuses a mismatch, and only after the turn started).
var imageMagic = map[string][][]byte{
	"image/png":  {[]byte("\x89PNG\r\n\x1a\n")},
	"image/jpeg": {[]byte("\xff\xd8\xff")},
	"image/gif":  {[]byte("GIF87a"), []byte("GIF89a")},
	"image/webp": {[]byte("RIFF")},
}

// checkImages refuses, before anything is sent, images the API or the wire would refuse.
func checkImages(images []protocol.PromptImage) error {
	if len(images) > maxPromptImages {
		return badRequest("A prompt can carry at most %d images; this one has %d. Send the rest with the next prompt.", maxPromptImages, len(images))
	}
	total := 0
	for i, img := range images {
		n := i + 1
		magic, ok := imageMagic[img.MediaType]
		if !ok {
			return badRequest("Image %d is %s; Claude reads PNG, JPEG, GIF and WebP images only.", n, img.MediaType)
		}
		total += len(img.Data)
		if total > maxPromptImageData {
			return badRequest("The images together are too large to send (%.1f MB of data at most); attach fewer or smaller ones.", float64(maxPromptImageData)/(1<<20))
		}
		raw, err := base64.StdEncoding.DecodeString(img.Data)
		if err != nil {
			return badRequest("Image %d could not be read (its data is not base64): attach it again.", n)
		}
		if len(raw) > maxImageBytes {
			return badRequest("Image %d is %.1f MB; Claude takes images up to 5 MB. Attach a smaller one.", n, float64(len(raw))/(1<<20))
		}
		if !hasPrefix(raw, magic) || (img.MediaType == "image/webp" && (len(raw) < 12 || string(raw[8:12]) != "WEBP")) {
			return badRequest("Image %d is not the %s it says it is: attach it again.", n, img.MediaType)
		}
	}
	return nil
}

func hasPrefix(raw []byte, prefixes [][]byte) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(raw, p) {
			return true
		}
	}
	return false
}
