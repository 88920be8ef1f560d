//! A plain-Rust copy of the trained decoder for CPU inference. candle's CPU transposed
//! convolution is general and slow at these tiny maps; here each layer is a scatter of
//! axpys over channels-last maps that skips the zeros ReLU leaves, and levels of a batch run
//! in parallel. It computes the same function as [`super::arch::Decoder`] (checked by tests
//! to float rounding) and is only used for inference.

use super::arch::{Decoder, CLASSES, FILTERS, INNER, KERNEL};
use super::error::Result;
use crate::layout::{CANVAS_CELLS, CANVAS_HEIGHT, CANVAS_WIDTH};
use rayon::prelude::*;

/// One 3×3 transposed convolution, weights as `[in][ky][kx][out]`.
#[derive(Clone, Debug)]
struct Layer {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Layer {
    /// `input` is `[h][w][inputs]`; returns `[h+2][w+2][outputs]`.
    fn forward(&self, input: &[f32], h: usize, w: usize, relu: bool) -> Vec<f32> {
        let (ow, co) = (w + KERNEL - 1, self.outputs);
        let mut out: Vec<f32> = std::iter::repeat_n(&self.bias, (h + KERNEL - 1) * ow)
            .flatten()
            .copied()
            .collect();
        for y in 0..h {
            for x in 0..w {
                let cell = &input[(y * w + x) * self.inputs..][..self.inputs];
                for (i, &v) in cell.iter().enumerate() {
                    if v == 0.0 {
                        continue;
                    }
                    for ky in 0..KERNEL {
                        for kx in 0..KERNEL {
                            let wrow = &self.weight[((i * KERNEL + ky) * KERNEL + kx) * co..][..co];
                            let orow = &mut out[((y + ky) * ow + x + kx) * co..][..co];
                            for (o, &wv) in orow.iter_mut().zip(wrow) {
                                *o += v * wv;
                            }
                        }
                    }
                }
            }
        }
        if relu {
            out.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        out
    }
}

/// The decoder's weights copied out of candle, ready for fast CPU inference.
#[derive(Clone, Debug)]
pub struct FastDecoder {
    inputs: usize,
    /// `[960][inputs]`.
    fc_weight: Vec<f32>,
    fc_bias: Vec<f32>,
    layers: [Layer; 3],
}

impl FastDecoder {
    /// Copies the weights of a candle decoder.
    ///
    /// # Errors
    /// A tensor failure while reading the weights.
    pub fn new(decoder: &Decoder) -> Result<Self> {
        let (fc, convs) = decoder.parts();
        let fc_weight = fc.weight().flatten_all()?.to_vec1::<f32>()?;
        let fc_bias = fc
            .bias()
            .map(|b| b.to_vec1::<f32>())
            .transpose()?
            .unwrap_or_else(|| vec![0.0; fc.weight().dim(0).unwrap_or(0)]);
        let inputs = fc.weight().dim(1)?;
        let layer = |i: usize| -> Result<Layer> {
            let c = convs[i];
            let (cin, cout) = (c.weight().dim(0)?, c.weight().dim(1)?);
            let w = c.weight().flatten_all()?.to_vec1::<f32>()?; // [in][out][ky][kx]
            let mut weight = vec![0f32; w.len()];
            for a in 0..cin {
                for o in 0..cout {
                    for k in 0..KERNEL * KERNEL {
                        weight[(a * KERNEL * KERNEL + k) * cout + o] =
                            w[(a * cout + o) * KERNEL * KERNEL + k];
                    }
                }
            }
            let bias = c
                .bias()
                .map(|b| b.to_vec1::<f32>())
                .transpose()?
                .unwrap_or_else(|| vec![0.0; cout]);
            Ok(Layer {
                inputs: cin,
                outputs: cout,
                weight,
                bias,
            })
        };
        Ok(Self {
            inputs,
            fc_weight,
            fc_bias,
            layers: [layer(0)?, layer(1)?, layer(2)?],
        })
    }

    /// Logits `[3][11][9]` of one decoder input `[z, conditions]`, written into `out`.
    fn decode_one(&self, z_hat: &[f32], out: &mut [f32]) {
        let (c0, (h0, w0)) = (FILTERS[2], INNER);
        let mut h = vec![0f32; h0 * w0 * c0];
        for (j, (row, b)) in self
            .fc_weight
            .chunks_exact(self.inputs)
            .zip(&self.fc_bias)
            .enumerate()
        {
            let v = b + row.iter().zip(z_hat).map(|(w, z)| w * z).sum::<f32>();
            let (c, cell) = (j / (h0 * w0), j % (h0 * w0));
            h[cell * c0 + c] = v.max(0.0);
        }
        let h = self.layers[0].forward(&h, h0, w0, true);
        let h = self.layers[1].forward(&h, h0 + 2, w0 + 2, true);
        let h = self.layers[2].forward(&h, h0 + 4, w0 + 4, false);
        for cell in 0..CANVAS_CELLS {
            for class in 0..CLASSES {
                out[class * CANVAS_CELLS + cell] = h[cell * CLASSES + class];
            }
        }
    }

    /// Logits `[N, 3, 11, 9]` (flattened) of `n` decoder inputs laid out row by row.
    pub fn decode(&self, z_hat: &[f32], n: usize) -> Vec<f32> {
        let mut out = vec![0f32; n * CLASSES * CANVAS_CELLS];
        let per = CLASSES * CANVAS_CELLS;
        if n <= 4 {
            for (i, o) in out.chunks_exact_mut(per).enumerate() {
                self.decode_one(&z_hat[i * self.inputs..][..self.inputs], o);
            }
        } else {
            out.par_chunks_exact_mut(per)
                .enumerate()
                .for_each(|(i, o)| self.decode_one(&z_hat[i * self.inputs..][..self.inputs], o));
        }
        debug_assert_eq!(CANVAS_CELLS, CANVAS_HEIGHT * CANVAS_WIDTH);
        out
    }

    /// Inputs per level (`[z, conditions]`).
    pub fn inputs(&self) -> usize {
        self.inputs
    }
}
