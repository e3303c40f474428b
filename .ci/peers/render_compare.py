"""Compares our PNG with Chromium's screenshot of the same scene.

Usage: render_compare.py OURS.png SHOT.png
Both are flattened on white. Passes when the sizes agree (the screenshot may be larger: its
top-left part is compared), the mean absolute difference per channel is below 2 (of 255)
and fewer than 0.5 % of the pixels differ by more than 64 in some channel (anti-aliasing
of edges differs a little between Skia in Chromium and tiny-skia; a missing shape, a wrong
colour or a shifted drawing does not pass). Prints the figures.
"""
import sys

from PIL import Image, ImageChops


def flat(path):
    image = Image.open(path).convert("RGBA")
    white = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, image).convert("RGB")


def main():
    ours, shot = flat(sys.argv[1]), flat(sys.argv[2])
    if shot.size[0] < ours.size[0] or shot.size[1] < ours.size[1]:
        print(f"size: ours {ours.size}, screenshot {shot.size}")
        return 1
    shot = shot.crop((0, 0, ours.size[0], ours.size[1]))
    diff = ImageChops.difference(ours, shot)
    pixels = ours.size[0] * ours.size[1]
    histogram = diff.histogram()
    total = sum(value * count for band in range(3) for value, count in enumerate(histogram[band * 256:(band + 1) * 256]))
    mean = total / (3 * pixels)
    strong = diff.point(lambda v: 255 if v > 64 else 0).convert("L").point(lambda v: 255 if v else 0)
    strong_share = strong.histogram()[255] / pixels
    ok = mean < 2.0 and strong_share < 0.005
    print(f"{sys.argv[1]}: mean difference {mean:.3f}, strongly different pixels {strong_share * 100:.3f} % -> {'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
