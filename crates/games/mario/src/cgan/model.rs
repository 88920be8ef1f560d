//! The two networks of Appendix A: convolutional, and trained on every one of the four ways
//! a window of four connected patterns can be cut (Fig. A.1), with the cut pattern's position
//! given as a one-hot vector; plus seeded dropout and the generation helpers.
//!
//! A window (four connected patterns, 16 columns × 14 rows) is stored as 224 normalised
//! values column by column, like a pattern's 56; the networks see it as a 16 × 14 grid of
//! cells with channels.
//!
//! Generator `gen.*`: the window with the cut pattern's cells zeroed, a channel marking those
//! cells, and z spread over three more channels (5 channels) → Conv 3×3 stride 2, 32 (8 × 7)
//! → Conv 3×3 stride 2, 64 (4 × 4) → ‖ z ‖ position (1,031) → 256 → 56, sigmoid out. z enters
//! twice, beside every cell the convolutions see and again at the dense layer, so a change of
//! z can move any cell of the output.
//!
//! Discriminator `disc.*`: the whole window and the channel marking the cut pattern (2
//! channels) → the same two convolutions → ‖ position → 128 → 1 logit, dropout 0.4 after the
//! convolutions and after the dense layer (training only).
//!
//! LeakyReLU 0.2 after every hidden layer (Table 6.1). Fig. 6.7's exact layer sizes are not
//! in the text we have; these are the smallest that train in minutes on a 2-core CPU.

use super::{normalise, Pattern, CELLS, CONTEXT, Z_DIM};
use candle_core::{DType, Device, Result, Tensor, D};
use candle_nn::{linear, Linear, Module, VarBuilder, VarMap};
use studio_core::rng::Rng;

/// Filters of the first convolution (both networks).
pub const CONV_1: usize = 32;
/// Filters of the second convolution (both networks; stride 2).
pub const CONV_2: usize = 64;
/// Width of the generator's dense hidden layer.
pub const GEN_HIDDEN: usize = 256;
/// Width of the discriminator's dense hidden layer.
pub const DISC_HIDDEN: usize = 128;
/// The widths the sidecar records and loading checks.
pub const WIDTHS: [usize; 4] = [CONV_1, CONV_2, GEN_HIDDEN, DISC_HIDDEN];
/// Slope of LeakyReLU for negative inputs (Table 6.1).
pub const LEAKY_SLOPE: f64 = 0.2;
/// Patterns in a window (three given, one cut).
pub const POSITIONS: usize = CONTEXT + 1;
/// Input width of the generator's context (three patterns).
pub const CONTEXT_WIDTH: usize = CONTEXT * CELLS;
/// Values in a window of four patterns.
pub const SAMPLE_WIDTH: usize = POSITIONS * CELLS;
/// The position the studio generates at: the pattern after the three given.
pub const NEXT: usize = CONTEXT;

const ROWS: usize = super::ROWS;
const WINDOW_COLS: usize = POSITIONS * super::COLS;
/// The second convolution's output, flattened.
const CONV_OUT: usize = CONV_2 * ROWS.div_ceil(2).div_ceil(2) * WINDOW_COLS.div_ceil(4);
const _: () = assert!(Z_DIM == 3, "the generator stacks three z planes");

fn leaky(xs: &Tensor) -> Result<Tensor> {
    candle_nn::ops::leaky_relu(xs, LEAKY_SLOPE)
}

/// Inverted dropout with a mask drawn from our seeded generator (candle's `dropout` is not
/// seeded): each unit is zeroed with probability `p`, the rest scaled by `1 / (1 - p)`.
///
/// # Errors
/// A tensor failure.
pub fn seeded_dropout(xs: &Tensor, p: f64, rng: &mut Rng) -> Result<Tensor> {
    if p <= 0.0 {
        return Ok(xs.clone());
    }
    let keep = (1.0 / (1.0 - p)) as f32;
    let mask: Vec<f32> = (0..xs.elem_count())
        .map(|_| if rng.chance(p) { 0.0 } else { keep })
        .collect();
    xs * Tensor::from_vec(mask, xs.shape(), xs.device())?
}

/// One-hot positions as a (batch, 4) tensor.
///
/// # Errors
/// A tensor failure.
pub fn one_hot(positions: &[usize], device: &Device) -> Result<Tensor> {
    let mut v = vec![0f32; positions.len() * POSITIONS];
    for (i, &p) in positions.iter().enumerate() {
        v[i * POSITIONS + p.min(POSITIONS - 1)] = 1.0;
    }
    Tensor::from_vec(v, (positions.len(), POSITIONS), device)
}

/// (batch, 224): 1 on the cells of the pattern at each one-hot position, 0 elsewhere.
///
/// # Errors
/// A tensor failure.
pub fn cut_mask(one_hot: &Tensor) -> Result<Tensor> {
    let mut spread = vec![0f32; POSITIONS * SAMPLE_WIDTH];
    for p in 0..POSITIONS {
        for c in p * CELLS..(p + 1) * CELLS {
            spread[p * SAMPLE_WIDTH + c] = 1.0;
        }
    }
    one_hot.matmul(&Tensor::from_vec(
        spread,
        (POSITIONS, SAMPLE_WIDTH),
        one_hot.device(),
    )?)
}

/// The window with the pattern at the mask's position replaced by `pattern` (batch, 56).
///
/// # Errors
/// A tensor failure.
pub fn insert(windows: &Tensor, mask: &Tensor, pattern: &Tensor) -> Result<Tensor> {
    let tiled = Tensor::cat(&[pattern; POSITIONS], 1)?;
    (windows * mask.affine(-1.0, 1.0)?)? + (tiled * mask)?
}

/// A 3 × 3 convolution over the window's 16 × 14 cells with zero padding, as a gather of
/// each output cell's neighbourhood (`index_select`) and one matrix product. Measured on a
/// first design (a stride-1 then a stride-2 convolution): an epoch took 80 s with candle's
/// `conv2d` and 50 s with this gather; the two stride-2 convolutions kept take 14 s.
/// Activations are channel-last and flattened: cell `x · 14 + y`, then channel.
#[derive(Clone, Debug)]
pub struct Conv3 {
    kernel: Linear,
    gather: Tensor,
    channels: usize,
    positions: usize,
}

impl Conv3 {
    /// `in_channels` → `out_channels` over a `cols` × `rows` grid, moving `stride` cells a step.
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn new(
        in_channels: usize,
        out_channels: usize,
        (cols, rows): (usize, usize),
        stride: usize,
        vb: VarBuilder,
    ) -> Result<Self> {
        let kernel = linear(9 * in_channels, out_channels, vb)?;
        let device = kernel.weight().device().clone();
        let pad = (cols * rows * in_channels) as u32;
        let mut gather = Vec::new();
        let (out_cols, out_rows) = (cols.div_ceil(stride), rows.div_ceil(stride));
        for ox in 0..out_cols {
            for oy in 0..out_rows {
                for dx in 0..3 {
                    for dy in 0..3 {
                        let (x, y) = (
                            (ox * stride + dx) as isize - 1,
                            (oy * stride + dy) as isize - 1,
                        );
                        let inside =
                            (0..cols as isize).contains(&x) && (0..rows as isize).contains(&y);
                        for c in 0..in_channels {
                            gather.push(if inside {
                                ((x as usize * rows + y as usize) * in_channels + c) as u32
                            } else {
                                pad
                            });
                        }
                    }
                }
            }
        }
        let len = gather.len();
        Ok(Self {
            kernel,
            gather: Tensor::from_vec(gather, len, &device)?,
            channels: in_channels,
            positions: out_cols * out_rows,
        })
    }

    /// Output cells (the grid after the stride).
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// (batch, cells · in_channels) → (batch, positions · out_channels).
    ///
    /// # Errors
    /// A tensor failure (wrong shapes).
    pub fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        let b = xs.dim(0)?;
        let padded = Tensor::cat(&[xs, &Tensor::zeros((b, 1), xs.dtype(), xs.device())?], 1)?;
        let patches = padded
            .index_select(&self.gather, 1)?
            .reshape((b * self.positions, 9 * self.channels))?;
        self.kernel.forward(&patches)?.reshape((b, ()))
    }
}

const GRID: (usize, usize) = (WINDOW_COLS, ROWS);

fn convs(vb: &VarBuilder, channels: usize) -> Result<[Conv3; 2]> {
    let half = (GRID.0.div_ceil(2), GRID.1.div_ceil(2));
    Ok([
        Conv3::new(channels, CONV_1, GRID, 2, vb.pp("c1"))?,
        Conv3::new(CONV_1, CONV_2, half, 2, vb.pp("c2"))?,
    ])
}

fn run_convs(convs: &[Conv3; 2], x: &Tensor) -> Result<Tensor> {
    convs
        .iter()
        .try_fold(x.clone(), |x, c| leaky(&c.forward(&x)?))
}

/// Stacks (batch, 224) per-cell planes into channel-last (batch, 224 · planes).
fn stack(planes: &[&Tensor]) -> Result<Tensor> {
    let b = planes[0].dim(0)?;
    let cols: Vec<Tensor> = planes
        .iter()
        .map(|p| p.unsqueeze(2))
        .collect::<Result<_>>()?;
    Tensor::cat(&cols, 2)?.reshape((b, ()))
}

/// The generator: a window with one pattern cut, its position and z → that pattern in
/// `[0, 1]^56`.
#[derive(Clone, Debug)]
pub struct Generator {
    convs: [Conv3; 2],
    l1: Linear,
    l2: Linear,
}

impl Generator {
    /// The layers under `vb` (use `vb.pp("gen")`).
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn new(vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            convs: convs(&vb, 2 + Z_DIM)?,
            l1: linear(CONV_OUT + Z_DIM + POSITIONS, GEN_HIDDEN, vb.pp("l1"))?,
            l2: linear(GEN_HIDDEN, CELLS, vb.pp("l2"))?,
        })
    }

    /// The generator stored in `varmap` under `gen.`, on the device of its variables.
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn from_varmap(varmap: &VarMap) -> Result<Self> {
        let device = varmap
            .all_vars()
            .first()
            .map_or(Device::Cpu, |v| v.device().clone());
        Self::new(VarBuilder::from_varmap(varmap, DType::F32, &device).pp("gen"))
    }

    /// The device its weights are on (where its inputs must be made).
    pub fn device(&self) -> Device {
        self.l1.weight().device().clone()
    }

    /// `windows`: (batch, 224) normalised windows (the cut pattern's cells are ignored);
    /// `one_hot`: (batch, 4) the cut pattern's position; `z`: (batch, 3) → (batch, 56).
    ///
    /// # Errors
    /// A tensor failure (wrong shapes).
    pub fn forward_at(&self, windows: &Tensor, one_hot: &Tensor, z: &Tensor) -> Result<Tensor> {
        let b = windows.dim(0)?;
        let mask = cut_mask(one_hot)?;
        let given = (windows * mask.affine(-1.0, 1.0)?)?;
        let zs: Vec<Tensor> = (0..Z_DIM)
            .map(|k| {
                z.narrow(1, k, 1)?
                    .broadcast_as((b, SAMPLE_WIDTH))?
                    .contiguous()
            })
            .collect::<Result<_>>()?;
        let x = run_convs(
            &self.convs,
            &stack(&[&given, &mask, &zs[0], &zs[1], &zs[2]])?,
        )?;
        let x = Tensor::cat(&[&x, z, one_hot], D::Minus1)?;
        let x = leaky(&self.l1.forward(&x)?)?;
        candle_nn::ops::sigmoid(&self.l2.forward(&x)?)
    }

    /// The next pattern after three: `context` (batch, 168) normalised patterns, `z`
    /// (batch, 3) → (batch, 56) in `[0, 1]`.
    ///
    /// # Errors
    /// A tensor failure (wrong shapes).
    pub fn forward(&self, context: &Tensor, z: &Tensor) -> Result<Tensor> {
        let b = context.dim(0)?;
        let windows = Tensor::cat(
            &[
                context,
                &Tensor::zeros((b, CELLS), DType::F32, context.device())?,
            ],
            1,
        )?;
        self.forward_at(&windows, &one_hot(&vec![NEXT; b], context.device())?, z)
    }
}

/// The discriminator: a window of four connected patterns and the position of the one that
/// may be generated → one logit (real > 0).
#[derive(Clone, Debug)]
pub struct Discriminator {
    convs: [Conv3; 2],
    l1: Linear,
    l2: Linear,
}

impl Discriminator {
    /// The layers under `vb` (use `vb.pp("disc")`).
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn new(vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            convs: convs(&vb, 2)?,
            l1: linear(CONV_OUT + POSITIONS, DISC_HIDDEN, vb.pp("l1"))?,
            l2: linear(DISC_HIDDEN, 1, vb.pp("l2"))?,
        })
    }

    /// `samples`: (batch, 224), `one_hot`: (batch, 4) → logits (batch, 1). With
    /// `dropout = Some((p, rng))` (training) each hidden layer gets a fresh seeded mask.
    ///
    /// # Errors
    /// A tensor failure (wrong shapes).
    pub fn forward(
        &self,
        samples: &Tensor,
        one_hot: &Tensor,
        mut dropout: Option<(f64, &mut Rng)>,
    ) -> Result<Tensor> {
        let mut x = run_convs(&self.convs, &stack(&[samples, &cut_mask(one_hot)?])?)?;
        if let Some((p, rng)) = dropout.as_mut() {
            x = seeded_dropout(&x, *p, rng)?;
        }
        let mut x = leaky(&self.l1.forward(&Tensor::cat(&[&x, one_hot], D::Minus1)?)?)?;
        if let Some((p, rng)) = dropout.as_mut() {
            x = seeded_dropout(&x, *p, rng)?;
        }
        self.l2.forward(&x)
    }
}

/// Normalised contexts as a (batch, 168) tensor on `device`.
///
/// # Errors
/// A tensor failure.
pub fn context_tensor(previous: &[[Pattern; CONTEXT]], device: &Device) -> Result<Tensor> {
    let mut v = Vec::with_capacity(previous.len() * CONTEXT_WIDTH);
    for ctx in previous {
        for p in ctx {
            v.extend_from_slice(&normalise(p));
        }
    }
    Tensor::from_vec(v, (previous.len(), CONTEXT_WIDTH), device)
}

/// Raw generator outputs for many (context, z) pairs at once (`z.len() == previous.len()`).
///
/// # Errors
/// A tensor failure, or the lengths differ.
pub fn generate_batch(
    gen: &Generator,
    previous: &[[Pattern; CONTEXT]],
    z: &[[f32; Z_DIM]],
) -> Result<Vec<[f32; CELLS]>> {
    if previous.len() != z.len() {
        return Err(candle_core::Error::Msg(format!(
            "{} contexts but {} latent vectors",
            previous.len(),
            z.len()
        )));
    }
    if z.is_empty() {
        return Ok(Vec::new());
    }
    let zs: Vec<f32> = z.iter().flatten().copied().collect();
    let device = gen.device();
    let zt = Tensor::from_vec(zs, (z.len(), Z_DIM), &device)?;
    let out = gen.forward(&context_tensor(previous, &device)?, &zt)?;
    let flat: Vec<f32> = out.flatten_all()?.to_vec1()?;
    Ok(flat
        .chunks_exact(CELLS)
        .map(|c| {
            let mut a = [0.0; CELLS];
            a.copy_from_slice(c);
            a
        })
        .collect())
}

/// The raw generator output (56 values in `[0, 1]`) after `previous` for latent vector `z`.
///
/// # Errors
/// A tensor failure.
pub fn generate_raw(
    gen: &Generator,
    previous: &[Pattern; CONTEXT],
    z: [f32; Z_DIM],
) -> Result<[f32; CELLS]> {
    generate_batch(gen, std::slice::from_ref(previous), &[z])?
        .pop()
        .ok_or_else(|| candle_core::Error::Msg("empty generator output".into()))
}
