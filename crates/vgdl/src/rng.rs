//! The random numbers GVGAI's engine draws: `java.util.Random`'s 48-bit linear congruential
//! generator, written from its published specification (the JDK's documentation gives the
//! multiplier, the increment and how each method turns the state into a number), so that a
//! game seeded as GVGAI seeds it draws the same numbers in the same order.

/// `java.util.Random`: a 48-bit linear congruential generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaRandom {
    state: u64,
}

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const INCREMENT: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;

impl JavaRandom {
    /// A generator seeded as `new Random(seed)`.
    pub fn new(seed: i64) -> JavaRandom {
        JavaRandom {
            state: (seed as u64 ^ MULTIPLIER) & MASK,
        }
    }

    /// The next `bits` random bits (1–32), as `Random.next(bits)`.
    fn next(&mut self, bits: u32) -> i32 {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT) & MASK;
        (self.state >> (48 - bits)) as u32 as i32
    }

    /// `nextInt(bound)`: uniform in `0..bound`; `bound` must be positive.
    pub fn next_int(&mut self, bound: i32) -> i32 {
        assert!(bound > 0, "bound must be positive");
        if bound & (bound - 1) == 0 {
            return ((i64::from(bound) * i64::from(self.next(31))) >> 31) as i32;
        }
        loop {
            let bits = self.next(31);
            let val = bits % bound;
            // Java's check for the uneven last stretch, in 32-bit wrapping arithmetic.
            if bits.wrapping_sub(val).wrapping_add(bound - 1) >= 0 {
                return val;
            }
        }
    }

    /// `nextFloat()`: uniform in `[0, 1)` with 24 random bits.
    pub fn next_float(&mut self) -> f32 {
        self.next(24) as f32 / (1u32 << 24) as f32
    }

    /// `nextDouble()`: uniform in `[0, 1)` with 53 random bits.
    pub fn next_double(&mut self) -> f64 {
        let high = i64::from(self.next(26)) << 27;
        let low = i64::from(self.next(27));
        (high + low) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_numbers_are_javas() {
        // Printed by the JDK 17's own `java.util.Random` for these seeds.
        let mut r = JavaRandom::new(42);
        assert_eq!([r.next_int(10), r.next_int(10), r.next_int(10)], [0, 3, 8]);
        let mut r = JavaRandom::new(0);
        assert_eq!(r.next_int(100), 60);
        let mut r = JavaRandom::new(1);
        let d = r.next_double();
        assert_eq!(d, 0.730_878_190_703_290_9);
        let mut r = JavaRandom::new(1);
        let f = r.next_float();
        assert!((f - 0.730_878_2).abs() < 1e-6, "{f}");
        let mut r = JavaRandom::new(-5);
        assert_eq!(
            [r.next_int(7), r.next_int(1), r.next_int(1_000_000_007)],
            [5, 0, 717_457_953]
        );
        assert_eq!(r.next_float(), 0.343_656_3);
        assert_eq!(r.next_double(), 0.380_894_805_372_598_8);
    }
}
