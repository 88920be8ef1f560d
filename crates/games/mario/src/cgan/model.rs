//! The two networks, as small MLPs (the thesis's Fig. 6.7 uses CNNs; MLPs of this size train
//! in minutes on a 2-core CPU and see the whole 14×16 window in every unit), plus seeded
//! dropout and the generation helpers.
//!
//! Generator `gen.*`: [3 context patterns (168) ‖ z (3)] → 256 → 256 → 56, LeakyReLU(0.2)
//! between layers, sigmoid out. Discriminator `disc.*`: four connected patterns (224) → 256 →
//! 128 → 1 logit, LeakyReLU(0.2) and dropout 0.4 after each hidden layer (training only).
//! All inputs are normalised patterns (index / 18), column-major, so the 224 values of a
//! sample are the 14×16 window column by column.

use super::{normalise, Pattern, CELLS, CONTEXT, Z_DIM};
use candle_core::{DType, Device, Result, Tensor};
use candle_nn::{linear, Linear, Module, VarBuilder, VarMap};
use studio_core::rng::Rng;

/// Width of the generator's hidden layers.
pub const GEN_HIDDEN: usize = 256;
/// Width of the discriminator's first hidden layer.
pub const DISC_HIDDEN_1: usize = 256;
/// Width of the discriminator's second hidden layer.
pub const DISC_HIDDEN_2: usize = 128;
/// Slope of LeakyReLU for negative inputs (Table 6.1).
pub const LEAKY_SLOPE: f64 = 0.2;
/// Input width of the generator's context (three patterns).
pub const CONTEXT_WIDTH: usize = CONTEXT * CELLS;
/// Input width of the discriminator (four patterns).
pub const SAMPLE_WIDTH: usize = (CONTEXT + 1) * CELLS;

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

/// The generator: three previous patterns and z → the next pattern in `[0, 1]^56`.
#[derive(Clone, Debug)]
pub struct Generator {
    l1: Linear,
    l2: Linear,
    l3: Linear,
}

impl Generator {
    /// The layers under `vb` (use `vb.pp("gen")`).
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn new(vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            l1: linear(CONTEXT_WIDTH + Z_DIM, GEN_HIDDEN, vb.pp("l1"))?,
            l2: linear(GEN_HIDDEN, GEN_HIDDEN, vb.pp("l2"))?,
            l3: linear(GEN_HIDDEN, CELLS, vb.pp("l3"))?,
        })
    }

    /// The generator stored in `varmap` under `gen.`.
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn from_varmap(varmap: &VarMap) -> Result<Self> {
        Self::new(VarBuilder::from_varmap(varmap, DType::F32, &Device::Cpu).pp("gen"))
    }

    /// `context`: (batch, 168) normalised patterns; `z`: (batch, 3) → (batch, 56) in `[0, 1]`.
    ///
    /// # Errors
    /// A tensor failure (wrong shapes).
    pub fn forward(&self, context: &Tensor, z: &Tensor) -> Result<Tensor> {
        let x = Tensor::cat(&[context, z], 1)?;
        let x = leaky(&self.l1.forward(&x)?)?;
        let x = leaky(&self.l2.forward(&x)?)?;
        candle_nn::ops::sigmoid(&self.l3.forward(&x)?)
    }
}

/// The discriminator: four connected patterns → one logit (real > 0).
#[derive(Clone, Debug)]
pub struct Discriminator {
    l1: Linear,
    l2: Linear,
    l3: Linear,
}

impl Discriminator {
    /// The layers under `vb` (use `vb.pp("disc")`).
    ///
    /// # Errors
    /// A variable has the wrong shape.
    pub fn new(vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            l1: linear(SAMPLE_WIDTH, DISC_HIDDEN_1, vb.pp("l1"))?,
            l2: linear(DISC_HIDDEN_1, DISC_HIDDEN_2, vb.pp("l2"))?,
            l3: linear(DISC_HIDDEN_2, 1, vb.pp("l3"))?,
        })
    }

    /// `samples`: (batch, 224) → logits (batch, 1). With `dropout = Some((p, rng))` (training)
    /// each hidden layer gets a fresh seeded dropout mask.
    ///
    /// # Errors
    /// A tensor failure (wrong shapes).
    pub fn forward(
        &self,
        samples: &Tensor,
        mut dropout: Option<(f64, &mut Rng)>,
    ) -> Result<Tensor> {
        let mut x = leaky(&self.l1.forward(samples)?)?;
        if let Some((p, rng)) = dropout.as_mut() {
            x = seeded_dropout(&x, *p, rng)?;
        }
        x = leaky(&self.l2.forward(&x)?)?;
        if let Some((p, rng)) = dropout.as_mut() {
            x = seeded_dropout(&x, *p, rng)?;
        }
        self.l3.forward(&x)
    }
}

/// Normalised contexts as a (batch, 168) tensor.
///
/// # Errors
/// A tensor failure.
pub fn context_tensor(previous: &[[Pattern; CONTEXT]]) -> Result<Tensor> {
    let mut v = Vec::with_capacity(previous.len() * CONTEXT_WIDTH);
    for ctx in previous {
        for p in ctx {
            v.extend_from_slice(&normalise(p));
        }
    }
    Tensor::from_vec(v, (previous.len(), CONTEXT_WIDTH), &Device::Cpu)
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
    let zt = Tensor::from_vec(zs, (z.len(), Z_DIM), &Device::Cpu)?;
    let out = gen.forward(&context_tensor(previous)?, &zt)?;
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
