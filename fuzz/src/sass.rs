//! Properties of the SASS decoder on arbitrary words (fuzz target
//! `decode_sass`): decoding never panics, and every word that decodes
//! encodes back to itself, prints text that assembles back to the same
//! word, and decodes again to the same instruction.
//!
//! Input: 16 bytes of instruction word (little-endian, low word first) and
//! one byte choosing the SM; shorter inputs are padded with zeros.

use ptx2sass::internals::isa::family::MEASURED_SMS;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::isa::parse::parse_inst;
use ptx2sass::internals::target::Sm;

/// The word and SM an input stands for.
pub fn word_and_sm(data: &[u8]) -> (u128, Sm) {
    let mut bytes = [0u8; 16];
    for (b, d) in bytes.iter_mut().zip(data) {
        *b = *d;
    }
    let sm = MEASURED_SMS[usize::from(data.get(16).copied().unwrap_or(0)) % MEASURED_SMS.len()];
    (u128::from_le_bytes(bytes), Sm::new(sm))
}

/// Checks the properties for one input; panics (a finding) when one fails.
pub fn check_word_properties(data: &[u8]) {
    let (word, sm) = word_and_sm(data);
    let Ok(inst) = Inst::decode(word, sm) else { return };
    let again = inst.encode(sm).unwrap_or_else(|e| panic!("{word:#034x} on {sm} decodes but does not encode: {}", e.0));
    assert_eq!(again, word, "{word:#034x} on {sm}: a decoded word re-encodes differently");
    // A NaN immediate's text keeps only its sign and quiet bit: such a
    // word is listed `.raw`, and its text is not expected to read back.
    if !inst.text_reads_back() {
        return;
    }
    // The listing's text, which spells out a descriptor nvdisasm leaves
    // unprinted (sm_80–sm_89) when it is not UR4, so that it reads back.
    let text = inst.listing_text(sm, 0x100);
    let parsed = parse_inst(&text, sm, 0x100, inst.ctrl).unwrap_or_else(|e| panic!("{word:#034x} on {sm}: `{text}` does not assemble: {}", e.0));
    assert_eq!(parsed.encode(sm).ok(), Some(word), "{word:#034x} on {sm}: `{text}` assembles to another word");
    assert_eq!(Inst::decode(word, sm).as_ref(), Ok(&inst), "decoding is deterministic");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ptxas words (FACTS.md) with every single bit flipped, on every SM.
    #[test]
    fn single_bit_flips_of_real_words_keep_the_properties() {
        let words: [(u64, u64); 4] = [
            (0x0000000004047210, 0x004fc80007ffe005),
            (0x000000000000794d, 0x000fea0003800000),
            (0xffffffe80900780c, 0x000fe40003f62270),
            (0x0000000402027981, 0x000ea2000c1e1900),
        ];
        let mut decoded = 0;
        for (lo, hi) in words {
            let base = (hi as u128) << 64 | lo as u128;
            for bit in 0..128 {
                for sm in 0..MEASURED_SMS.len() as u8 {
                    let mut data = (base ^ 1u128 << bit).to_le_bytes().to_vec();
                    data.push(sm);
                    check_word_properties(&data);
                    decoded += Inst::decode(word_and_sm(&data).0, word_and_sm(&data).1).is_ok() as usize;
                }
            }
        }
        assert!(decoded > 100, "only {decoded} flipped words decode; the property was hardly exercised");
    }
}

#[cfg(test)]
mod corpus_flips {
    use super::*;

    /// Corpus words (`target/encoding-corpus`, when present) with single
    /// bits flipped keep the properties: a wider net than the fuzzer's seeds
    /// for the forms the table knows.
    #[test]
    fn corpus_words_with_flipped_bits_keep_the_properties() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/encoding-corpus");
        let mut checked = 0usize;
        for (k, &sm) in MEASURED_SMS.iter().enumerate() {
            let Ok(listing) = std::fs::read_to_string(root.join(format!("sm_{sm}.lst"))) else { continue };
            let hex: Vec<u64> = listing
                .lines()
                .filter_map(|l| l.rsplit_once("/* 0x").and_then(|(_, h)| u64::from_str_radix(h.trim_end_matches(" */").trim(), 16).ok()))
                .collect();
            let mut seen = std::collections::HashSet::new();
            for pair in hex.chunks_exact(2) {
                let word = (pair[1] as u128) << 64 | pair[0] as u128;
                if !seen.insert(word & !(0x7fu128 << 105)) {
                    continue;
                }
                for bit in (0..105).chain(122..126) {
                    let mut data = (word ^ 1u128 << bit).to_le_bytes().to_vec();
                    data.push(k as u8);
                    check_word_properties(&data);
                    checked += 1;
                }
            }
        }
        eprintln!("{checked} flipped corpus words checked");
    }
}
