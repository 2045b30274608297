pub mod analyzer;
pub mod stem_uk;
