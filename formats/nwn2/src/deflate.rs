//! One zlib stream compressed in independent chunks, several at a time (as pigz does).
//!
//! The body is cut into `chunk`-byte pieces. Each is raw-deflated on its own, primed with the
//! 32 KiB before it (so matches reach back as far as in a one-piece stream and the size stays
//! within a fraction of a percent of it), and ends with a sync flush, which byte-aligns the bit
//! stream with an empty stored block; the last one ends with the final block instead. Joined,
//! they are one valid deflate stream, wrapped in the zlib header and the Adler-32 of the whole
//! body (combined from each chunk's). Any inflater reads it; the stream's bytes differ from a
//! one-piece compression, the body it inflates to does not.
//!
//! [`ChunkedZlib`] takes the body in pieces as the bake produces it and hands every chunk to
//! rayon's pool as soon as it is complete (overlapping the bake). It never holds the whole
//! body: only the chunk being filled and the 32 KiB window before it, so a re-bake does not
//! touch (and have the kernel zero) a second and third copy of a 5 MB body.

use flate2::{Compress, Compression, FlushCompress, Status};

/// Chunk size used by the writer: large enough that the per-chunk cost (a sync marker and a
/// primed dictionary) is negligible, small enough that a 5 MB body splits over many cores.
pub const CHUNK: usize = 256 * 1024;
/// The deflate window: how far back a chunk's matches may reach into the previous one.
const WINDOW: usize = 32 * 1024;
/// Adler-32's modulus.
const BASE: u32 = 65_521;

/// A compressed chunk: raw deflate bytes, the chunk's Adler-32 and its length.
type Compressed = (Vec<u8>, u32, usize);
/// A chunk compressed by the pool, with its index in the body.
type Numbered = (usize, Compressed);

/// A zlib stream built chunk by chunk.
#[derive(Debug)]
pub struct ChunkedZlib {
    level: u32,
    chunk: usize,
    /// The window (the last bytes of the chunks already handed over, at most [`WINDOW`]),
    /// then the bytes of the chunk being filled.
    pending: Vec<u8>,
    /// How many bytes at the start of `pending` are window.
    window: usize,
    /// How many chunks have been handed to the thread pool.
    spawned: usize,
    /// Bytes pushed so far.
    length: usize,
    /// Whether complete chunks go to rayon's pool (else they are compressed by `push`), from
    /// the thread budget when the stream was started.
    parallel: bool,
    /// Where the pool's jobs send their chunk (with its index).
    results: (
        std::sync::mpsc::Sender<Numbered>,
        std::sync::mpsc::Receiver<Numbered>,
    ),
}

impl ChunkedZlib {
    /// `level` 0–9 (larger is clamped), `chunk` bytes per chunk (at least 1).
    pub fn new(level: u32, chunk: usize) -> Self {
        let chunk = chunk.max(1);
        ChunkedZlib {
            level: level.min(9),
            chunk,
            pending: Vec::with_capacity(chunk.min(CHUNK)),
            window: 0,
            spawned: 0,
            length: 0,
            parallel: walkmesh_core::threads::may_spawn(),
            results: std::sync::mpsc::channel(),
        }
    }

    /// Appends `piece` to the body and hands every chunk that is now complete to rayon's
    /// pool. A chunk is only handed over once more input follows it, so that the last chunk
    /// is always the one `finish` closes.
    ///
    /// Why the pool and not this thread: the bake produces the body faster than one core
    /// deflates it at level 6, so chunks queue up; in the pool they are deflated on every core
    /// as soon as the bake's own parallel work leaves one free.
    pub fn push(&mut self, mut piece: &[u8]) {
        self.length += piece.len();
        while !piece.is_empty() {
            let full = self.window + self.chunk;
            if self.pending.len() == full {
                // A full chunk and more input: hand it over, keep its end as the next window.
                let keep = full.min(WINDOW);
                let mut next = Vec::with_capacity(keep + self.chunk.min(CHUNK));
                next.extend_from_slice(self.pending.get(full - keep..).unwrap_or(&[]));
                let job = std::mem::replace(&mut self.pending, next);
                let start = self.window;
                self.window = keep;
                let (index, level) = (self.spawned, self.level);
                let sender = self.results.0.clone();
                let work = move || {
                    let compressed = deflate_chunk(&job, start, job.len(), level, false);
                    // The receiver lives until `finish` has every chunk.
                    let _ = sender.send((index, compressed));
                };
                // A thread budget of one (a batch worker) compresses here, in order.
                if self.parallel {
                    rayon::spawn(work);
                } else {
                    work();
                }
                self.spawned += 1;
            }
            let room = full - self.pending.len();
            let (now, later) = piece.split_at(room.min(piece.len()));
            self.pending.extend_from_slice(now);
            piece = later;
        }
    }

    /// Compresses the last chunk, collects the chunks handed over by `push`, and returns the
    /// whole zlib stream and the body's length; `None` if a chunk went missing (a job of the
    /// pool panicked, which rayon turns into an abort, so only in theory).
    pub fn finish(self) -> Option<(Vec<u8>, usize)> {
        let level = self.level;
        let last = deflate_chunk(&self.pending, self.window, self.pending.len(), level, true);
        let (sender, receiver) = self.results;
        drop(sender);
        let mut early: Vec<Option<Compressed>> = vec![None; self.spawned];
        // Ends when every job has sent its chunk and dropped its sender.
        for (index, compressed) in receiver {
            if let Some(slot) = early.get_mut(index) {
                *slot = Some(compressed);
            }
        }
        if early.iter().any(Option::is_none) {
            return None;
        }
        let size = early
            .iter()
            .flatten()
            .map(|(c, _, _)| c.len())
            .sum::<usize>()
            + last.0.len()
            + 6;
        let mut stream = Vec::with_capacity(size);
        stream.extend_from_slice(&zlib_header(level));
        let mut adler = 1u32;
        for (compressed, chunk_adler, length) in early.iter().flatten().chain([&last]) {
            stream.extend_from_slice(compressed);
            adler = adler32_combine(adler, *chunk_adler, *length);
        }
        stream.extend_from_slice(&adler.to_be_bytes());
        Some((stream, self.length))
    }
}

/// The zlib stream of `body` at `level`, compressed in [`CHUNK`]s on every core.
pub fn zlib(body: &[u8], level: u32) -> Vec<u8> {
    let mut encoder = ChunkedZlib::new(level, CHUNK);
    encoder.push(body);
    match encoder.finish() {
        Some((stream, _)) => stream,
        None => one_piece(body, level),
    }
}

/// The zlib stream of `body` compressed on this thread in one piece.
fn one_piece(body: &[u8], level: u32) -> Vec<u8> {
    let mut compress = Compress::new(Compression::new(level.min(9)), true);
    let mut out = Vec::with_capacity(body.len() / 2 + 1024);
    while let Ok(status) = compress.compress_vec(
        body.get((compress.total_in() as usize).min(body.len())..)
            .unwrap_or(&[]),
        &mut out,
        FlushCompress::Finish,
    ) {
        if status == Status::StreamEnd {
            break;
        }
        out.reserve(out.capacity().max(1024));
    }
    out
}

/// The two zlib header bytes: deflate with a 32 KiB window, the level class zlib writes, and
/// the check bits that make the pair a multiple of 31.
fn zlib_header(level: u32) -> [u8; 2] {
    let class: u8 = match level {
        0 | 1 => 0,
        2..=5 => 1,
        6 => 2,
        _ => 3,
    };
    let cmf = 0x78u8;
    let flg = class << 6;
    let check = (31 - ((u16::from(cmf) << 8 | u16::from(flg)) % 31)) % 31;
    [cmf, flg | check as u8]
}

/// Raw deflate of `body[start..end]` primed with the window before `start`, ending with a
/// sync flush, or with the final block when `last`; with the chunk's Adler-32 and length.
fn deflate_chunk(
    body: &[u8],
    start: usize,
    end: usize,
    level: u32,
    last: bool,
) -> (Vec<u8>, u32, usize) {
    let input = body.get(start..end).unwrap_or(&[]);
    let mut compress = Compress::new(Compression::new(level), false);
    if start > 0 {
        let window = body.get(start.saturating_sub(WINDOW)..start).unwrap_or(&[]);
        // Only fails on a stream already started; this one is fresh.
        let _ = compress.set_dictionary(window);
    }
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    let mut out = Vec::with_capacity(input.len() / 2 + 1024);
    loop {
        let consumed = (compress.total_in() as usize).min(input.len());
        let status = compress.compress_vec(input.get(consumed..).unwrap_or(&[]), &mut out, flush);
        let all_in = compress.total_in() as usize == input.len();
        match status {
            Ok(Status::StreamEnd) => break,
            // A flush is complete once a call leaves output space unused.
            Ok(_) if !last && all_in && out.len() < out.capacity() => break,
            Ok(_) => out.reserve(out.capacity().max(1024)),
            // Compressing into memory does not fail; stop rather than loop.
            Err(_) => break,
        }
    }
    (out, adler32(input), input.len())
}

/// Adler-32 of `data` (RFC 1950), 32 bytes at a time: over a run x₀…x₃₁ the sum `a` grows by
/// Σxᵢ and `b` by 32·a + Σ(32−i)·xᵢ, the same as adding byte by byte, but without the
/// one-byte dependency chain (the compiler vectorises the sums; a byte-wise loop was about 1 %
/// of a re-bake's CPU). Blocks stay under zlib's NMAX (5552) so the sums cannot overflow.
fn adler32(data: &[u8]) -> u32 {
    const RUN: usize = 32;
    const BLOCK: usize = 5552 / RUN * RUN;
    let (mut a, mut b) = (1u32, 0u32);
    for block in data.chunks(BLOCK) {
        let mut runs = block.chunks_exact(RUN);
        for run in &mut runs {
            let (mut sum, mut weighted) = (0u32, 0u32);
            for (i, &byte) in run.iter().enumerate() {
                sum += u32::from(byte);
                weighted += (RUN - i) as u32 * u32::from(byte);
            }
            b += RUN as u32 * a + weighted;
            a += sum;
        }
        for &byte in runs.remainder() {
            a += u32::from(byte);
            b += a;
        }
        a %= BASE;
        b %= BASE;
    }
    b << 16 | a
}

/// The Adler-32 of `first ++ second` from the checksums of both and the second's length.
fn adler32_combine(first: u32, second: u32, second_length: usize) -> u32 {
    let length = (second_length % BASE as usize) as u64;
    let base = u64::from(BASE);
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    // a = a1 + a2 - 1; b = b1 + b2 + length * (a1 - 1), all modulo BASE.
    let a = (a1 + a2 + base - 1) % base;
    let b = (b1 + b2 + length * a1 + base - length) % base;
    (b << 16 | a) as u32
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Read;

    fn inflate(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut out)
            .expect("a valid zlib stream with a matching Adler-32");
        out
    }

    /// Text-like bytes with repeats (so matches cross chunk borders) and noise.
    fn sample(length: usize, seed: u32) -> Vec<u8> {
        let mut state = seed.wrapping_mul(2_654_435_761).max(1);
        (0..length)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                if i % 7 < 4 {
                    b"walkmesh"[i % 8]
                } else {
                    state as u8
                }
            })
            .collect()
    }

    #[test]
    fn adler32_matches_hand_computed_and_combines() {
        // RFC 1950's example string, checksum from the definition.
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(b""), 1);
        // Against the byte-by-byte definition, on lengths around the run and block sizes and
        // on all-0xFF bytes (the largest sums).
        let bytewise = |data: &[u8]| {
            let (mut a, mut b) = (1u64, 0u64);
            for &byte in data {
                a = (a + u64::from(byte)) % u64::from(BASE);
                b = (b + a) % u64::from(BASE);
            }
            (b << 16 | a) as u32
        };
        for length in [1usize, 31, 32, 33, 5535, 5536, 5537, 5552, 5553, 20_000] {
            let noisy = sample(length, length as u32);
            assert_eq!(adler32(&noisy), bytewise(&noisy), "length {length}");
            let full = vec![0xFFu8; length];
            assert_eq!(adler32(&full), bytewise(&full), "length {length}, all 0xFF");
        }
        let data = sample(200_000, 3);
        for cut in [0, 1, 5551, 5552, 65_521, 65_522, 199_999, 200_000] {
            let (x, y) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(x), adler32(y), y.len()),
                adler32(&data)
            );
        }
    }

    #[test]
    fn header_is_a_valid_zlib_header() {
        for level in 0..=9 {
            let [cmf, flg] = zlib_header(level);
            assert_eq!((u16::from(cmf) << 8 | u16::from(flg)) % 31, 0);
            assert_eq!(cmf, 0x78);
        }
    }

    #[test]
    fn chunked_streams_inflate_to_the_body() {
        for length in [0usize, 1, 2, 100, 4095, 4096, 4097, 70_000, 300_001] {
            let body = sample(length, length as u32 + 1);
            for chunk in [1usize, 7, 4096, 32 * 1024, 100_000, CHUNK, 1 << 30] {
                if chunk < 64 && length > 5000 {
                    continue; // too slow to be worth it; small bodies cover tiny chunks
                }
                for level in [0u32, 1, 6, 9] {
                    // Fed in uneven pieces, as the bake hands them over.
                    let mut encoder = ChunkedZlib::new(level, chunk);
                    for piece in body.chunks(3001) {
                        encoder.push(piece);
                    }
                    let (stream, length) = encoder.finish().unwrap();
                    assert_eq!(length, body.len());
                    assert_eq!(
                        inflate(&stream),
                        body,
                        "length {length}, chunk {chunk}, level {level}"
                    );
                }
            }
        }
        assert_eq!(inflate(&zlib(b"", 6)), b"");
        let body = sample(3 * CHUNK + 5, 9);
        assert_eq!(inflate(&zlib(&body, 6)), body);
    }

    #[test]
    fn priming_keeps_the_size_close_to_one_piece() {
        use std::io::Write;
        let body = sample(2_000_000, 5);
        let mut one = flate2::write::ZlibEncoder::new(Vec::new(), Compression::new(6));
        one.write_all(&body).unwrap();
        let one = one.finish().unwrap();
        let chunked = zlib(&body, 6);
        assert!(
            chunked.len() as f64 <= one.len() as f64 * 1.01,
            "{} vs {}",
            chunked.len(),
            one.len()
        );
    }
}
