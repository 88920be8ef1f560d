//! The tile representation learned from **pixels** (`blend-pix-fc`, `blend-pix-cnn`): CTE's
//! recipe as the paper describes it. Per tile occurrence, its context is the tile's affordance
//! tags in its own game ([`own_tags`]), the pooled sprites of the tile and its 8 neighbours
//! cut from the corpus's screenshots ([`super::pixels`]; zeros outside the segment and on a
//! Zelda room's blank padding) and 4 edge bits — no letter and no one-hot is an input. The
//! autoencoder and clustering term are [`super::embed`]'s; the clustering term groups a tile's
//! occurrences by its own tile, as CTE's clusters do.
//!
//! A segment with no screenshot (a blend, a pasted level, a test segment in the lab) takes
//! each own tile's **typical sprite**: the most frequent one among the training occurrences
//! ([`PixelTiles::typical`], saved with the model).

use super::data::{Segment, Source, SIDE};
use super::embed::{self, own_tags, own_tiles, EmbedConfig, Embedding, OWN, TAGS};
use super::pixels::{Pictures, PixelTiles, Sprite, SPRITE};
use candle_core::{Device, Tensor};
use candle_nn::VarMap;
use std::collections::{BTreeMap, HashMap};

/// Numbers of a pixel context: the tile's tags, 9 sprites, 4 edge bits.
pub const WIDTH: usize = TAGS + 9 * SPRITE + 4;

fn key(sprite: &[f32]) -> Vec<u8> {
    sprite.iter().map(|v| (v * 255.0).round() as u8).collect()
}

impl PixelTiles {
    /// The typical sprites of `segments`' own tiles, and their screenshots' sprites kept by
    /// rows.
    pub fn new(segments: &[Segment], pictures: &Pictures) -> Self {
        let mut counts: Vec<BTreeMap<Vec<u8>, (usize, Sprite)>> = vec![BTreeMap::new(); OWN.len()];
        let mut known = HashMap::new();
        for s in segments {
            let Some(sprites) = pictures.sprites.get(&s.name) else {
                continue;
            };
            for (tile, sprite) in own_tiles(&s.rows, s.source).into_iter().zip(sprites) {
                if let (Some(t), Some(sprite)) = (tile, sprite) {
                    counts[t].entry(key(sprite)).or_insert((0, *sprite)).0 += 1;
                }
            }
            known.insert(s.rows.clone(), sprites.clone());
        }
        let typical = counts
            .iter()
            .map(|c| {
                c.values()
                    .max_by_key(|(n, _)| *n)
                    .map_or([0.0; SPRITE], |(_, s)| *s)
            })
            .collect();
        Self { typical, known }
    }

    /// Keeps the screenshots' sprites of more segments (the validation segments), so that
    /// they are read from their pictures as the training segments are.
    pub fn remember(&mut self, segments: &[Segment], pictures: &Pictures) {
        for s in segments {
            if let Some(sprites) = pictures.sprites.get(&s.name) {
                self.known.insert(s.rows.clone(), sprites.clone());
            }
        }
    }

    /// The sprites of a segment's cells: its screenshot's when read at training, else each
    /// own tile's typical sprite (`None` for a letter neither game has).
    pub fn sprites(&self, rows: &[String], game: Source) -> Vec<Option<Sprite>> {
        if let Some(s) = self.known.get(rows) {
            return s.clone();
        }
        own_tiles(rows, game)
            .into_iter()
            .map(|t| t.and_then(|t| self.typical.get(t).copied()))
            .collect()
    }

    /// The pixel contexts of a segment's 256 cells (`256 × WIDTH`), its shared letters read
    /// as `game`'s.
    pub fn segment_contexts(&self, rows: &[String], game: Source) -> Vec<f32> {
        contexts(rows, game, &self.sprites(rows, game))
    }

    /// The typical sprites as one tensor `[OWN, SPRITE]` (saved beside the encoder).
    ///
    /// # Errors
    /// A candle error.
    pub fn typical_tensor(&self) -> candle_core::Result<Tensor> {
        let flat: Vec<f32> = self.typical.iter().flatten().copied().collect();
        Tensor::from_vec(flat, (self.typical.len(), SPRITE), &Device::Cpu)
    }

    /// The typical sprites back from their tensor.
    ///
    /// # Errors
    /// A tensor that is not `[OWN, SPRITE]`.
    pub fn from_tensor(t: &Tensor) -> candle_core::Result<Self> {
        let rows = t.to_vec2::<f32>()?;
        if rows.len() != OWN.len() || rows.iter().any(|r| r.len() != SPRITE) {
            return Err(candle_core::Error::Msg(format!(
                "the typical sprites are {} × {}, not {} tiles × {SPRITE}",
                rows.len(),
                rows.first().map_or(0, Vec::len),
                OWN.len()
            )));
        }
        let typical = rows
            .into_iter()
            .map(|r| {
                let mut s = [0.0; SPRITE];
                s.copy_from_slice(&r);
                s
            })
            .collect();
        Ok(Self {
            typical,
            known: HashMap::new(),
        })
    }
}

/// The pixel contexts of a segment's 256 cells, row-major, from its cells' `sprites`.
pub fn contexts(rows: &[String], game: Source, sprites: &[Option<Sprite>]) -> Vec<f32> {
    let tiles = own_tiles(rows, game);
    let mut out = Vec::with_capacity(SIDE * SIDE * WIDTH);
    let side = SIDE as i64;
    for y in 0..side {
        for x in 0..side {
            let at = (y * side + x) as usize;
            match tiles.get(at).copied().flatten() {
                Some(t) => out.extend(own_tags(t)),
                None => out.extend([0.0; TAGS]),
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    let inside = nx >= 0 && ny >= 0 && nx < side && ny < side;
                    let sprite = inside
                        .then(|| sprites.get((ny * side + nx) as usize).copied().flatten())
                        .flatten();
                    out.extend(sprite.unwrap_or([0.0; SPRITE]));
                }
            }
            let last = side - 1;
            out.extend([y == 0, y == last, x == 0, x == last].map(|e| f32::from(u8::from(e))));
        }
    }
    out
}

/// The distinct (pixel context, own tile) pairs of `segments` (with their screenshots'
/// sprites in `tiles`), in a fixed order, and how often each occurs.
pub fn distinct_contexts(
    segments: &[Segment],
    tiles: &PixelTiles,
) -> (Vec<(Vec<f32>, usize)>, Vec<usize>) {
    let mut seen: BTreeMap<Vec<u8>, (Vec<f32>, usize, usize)> = BTreeMap::new();
    for s in segments {
        let ctx = tiles.segment_contexts(&s.rows, s.source);
        for (i, tile) in own_tiles(&s.rows, s.source).into_iter().enumerate() {
            let Some(tile) = tile else { continue };
            let c = &ctx[i * WIDTH..(i + 1) * WIDTH];
            seen.entry(key(c))
                .or_insert_with(|| (c.to_vec(), tile, 0))
                .2 += 1;
        }
    }
    seen.into_values().map(|(c, t, n)| ((c, t), n)).unzip()
}

/// Trains the pixel representation on `segments`, whose screenshots' sprites are in
/// `pictures`; `others` (the validation segments) are read from their pictures too when the
/// VAE encodes them. Returns its weights, the model and the loss per epoch.
///
/// # Errors
/// A candle error.
pub fn train(
    config: &EmbedConfig,
    segments: &[Segment],
    others: &[Segment],
    pictures: &Pictures,
) -> candle_core::Result<(VarMap, Embedding, Vec<f64>)> {
    let mut tiles = PixelTiles::new(segments, pictures);
    let (data, occurrences) = distinct_contexts(segments, &tiles);
    let (map, mut embedding, curve) = embed::fit(config, data, &occurrences, WIDTH)?;
    tiles.remember(others, pictures);
    embedding.pixels = Some(tiles);
    Ok((map, embedding, curve))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vae::{self, BlendModel, BlendSidecar, Family, Repr, VaeConfig};

    /// Lode Runner and Zelda segments (a row of each game's tiles over a floor).
    fn segments() -> Vec<Segment> {
        (0..10)
            .map(|i| {
                let zelda = i % 2 == 1;
                let fill = if zelda { "-" } else { "." }.repeat(SIDE);
                let mut rows = vec![fill; SIDE];
                rows[15] = "BBBBBBBBBBBBBBBB".into();
                rows[i] = if zelda {
                    "WWFFFFDDPPSSFFWW".into()
                } else {
                    "####GGGG....bbbb".into()
                };
                let source = if zelda {
                    Source::Zelda
                } else {
                    Source::LodeRunner
                };
                Segment {
                    name: format!("s{i}"),
                    source,
                    rows,
                }
            })
            .collect()
    }

    /// One sprite per own tile, a colour of its own, as the screenshots would give.
    fn pictures(segments: &[Segment]) -> Pictures {
        let mut p = Pictures::default();
        for s in segments {
            let sprites = own_tiles(&s.rows, s.source)
                .into_iter()
                .map(|t| {
                    let k = t.unwrap() as f32;
                    let mut sprite = [0.0; SPRITE];
                    for (i, v) in sprite.iter_mut().enumerate() {
                        *v = ((k * 0.37 + i as f32 * 0.11) % 1.0).abs();
                    }
                    Some(sprite)
                })
                .collect();
            p.sprites.insert(s.name.clone(), sprites);
        }
        p
    }

    fn sidecar(architecture: &str) -> BlendSidecar {
        BlendSidecar {
            architecture: architecture.into(),
            latent: vae::LATENT,
            embedding_curve: Vec::new(),
            neighbours: None,
            fc_hidden: None,
            table: None,
            after_warm_up: false,
            segments: 0,
            data_hash: String::new(),
            seed: 0,
            epochs: 0,
            train_seconds: 0.0,
            curve: Vec::new(),
            validation_curve: Vec::new(),
            kept_epoch: None,
            reconstruction_accuracy: 0.0,
            command: String::new(),
            weights: None,
        }
    }

    #[test]
    fn the_decode_table_drawn_by_occurrences_follows_how_often_tiles_occur() {
        // 2,000 distinct contexts of tile 0 seen once each, 1,000 of tile 1 seen 100 times.
        let data: Vec<(Vec<f32>, usize)> = (0..3000)
            .map(|i| {
                (
                    vec![(i % 97) as f32 / 97.0, (i / 97) as f32 / 31.0],
                    usize::from(i >= 2000),
                )
            })
            .collect();
        let occurrences: Vec<usize> = (0..3000).map(|i| if i >= 2000 { 100 } else { 1 }).collect();
        let share_of_tile_1 = |by_occurrence: bool| {
            let mut config = EmbedConfig::new(4);
            config.epochs = 1;
            config.table_by_occurrence = by_occurrence;
            let (_, e, _) = embed::fit(&config, data.clone(), &occurrences, 2).unwrap();
            assert_eq!(e.table.len(), embed::TABLE);
            e.tiles.iter().filter(|&&t| t == 1).count() as f64 / e.tiles.len() as f64
        };
        let distinct = share_of_tile_1(false);
        let by_occurrence = share_of_tile_1(true);
        assert!((0.25..0.45).contains(&distinct), "{distinct}");
        assert!(by_occurrence > 0.9, "{by_occurrence}");
    }

    #[test]
    fn the_pixel_representation_learns_tiles_from_sprites_and_round_trips() {
        let segs = segments();
        let pics = pictures(&segs);
        let mut config = EmbedConfig::new(3);
        config.epochs = 60;
        let (map, e, curve) = train(&config, &segs[..8], &segs[8..], &pics).unwrap();
        assert!(curve.last().unwrap() < curve.first().unwrap(), "{curve:?}");
        let tiles = e.pixels.as_ref().unwrap();
        // The validation segments are read from their pictures; an unseen segment from the
        // typical sprites, which here are the only sprites, so the contexts agree.
        assert!(tiles.known.contains_key(&segs[9].rows));
        let mut unseen = segs[9].rows.clone();
        unseen[0] = "FFFF------------".into();
        let typical = PixelTiles::from_tensor(&tiles.typical_tensor().unwrap()).unwrap();
        assert!(typical.known.is_empty());
        assert_eq!(
            typical.segment_contexts(&segs[9].rows, Source::Zelda),
            tiles.segment_contexts(&segs[9].rows, Source::Zelda)
        );
        assert_eq!(
            typical.segment_contexts(&unseen, Source::Zelda).len(),
            SIDE * SIDE * WIDTH
        );
        // Every cell decodes back to its tile from the embedding of its pixels and tags.
        for s in &segs {
            let cells = e.encode_segment(&s.rows, Some(s.source)).unwrap();
            let back = e.decode_segment(&cells);
            let same: usize = back
                .iter()
                .zip(&s.rows)
                .map(|(a, b)| a.chars().zip(b.chars()).filter(|(x, y)| x == y).count())
                .sum();
            assert!(same >= 250, "{}: {same} of 256 cells", s.name);
        }
        // Saved with a VAE and loaded back: the typical sprites, table and decoding agree.
        let mut vc = VaeConfig::new(1);
        vc.epochs = 1;
        let t = vae::train(&vc, Family::Fc, &segs, &[], &Repr::Learned(&e), &mut |_| {
            true
        })
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pix.safetensors");
        let side = sidecar(vae::PIXELS_ARCHITECTURE);
        vae::save(&t.varmap, Some((&map, &e)), &side, &path).unwrap();
        let loaded = BlendModel::load(&path).unwrap();
        let le = loaded.embedding.as_ref().unwrap();
        assert_eq!(le.pixels.as_ref().unwrap().typical, tiles.typical);
        assert_eq!(le.tiles, e.tiles);
        let cells = e.encode_segment(&unseen, None).unwrap();
        assert_eq!(le.encode_segment(&unseen, None).unwrap(), cells);
        assert_eq!(le.decode_segment(&cells), e.decode_segment(&cells));
        let blends = vae::random_blends(&loaded, 2, 0).unwrap();
        assert!(blends.iter().all(|b| crate::level::check_rows(b).is_ok()));
        // Another representation's or version's name is refused, in words naming it.
        for (name, said) in [
            (vae::LEARNED_ARCHITECTURE, "embed.e1.weight"),
            ("blend-fc-vae-pixels-v0", "blend-fc-vae-pixels-v0"),
        ] {
            let other = dir.path().join(format!("{name}.safetensors"));
            vae::save(&t.varmap, Some((&map, &e)), &sidecar(name), &other).unwrap();
            let err = BlendModel::load(&other).err().unwrap().to_string();
            assert!(err.contains(said), "{name}: {err}");
        }
    }
}
