"""The question bank's recordings (benchmarks/bank/make_recordings.py): all thirteen registered, the committed FLACs
byte-identical to the ones the builder made (pinned sha256), each valid against its truth file, bank_rec_13 built as
its brief says, and bank_rec_12 / bank_rec_13 rebuilt byte for byte (slow; needs flite, espeak-ng and the shared
data)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BANK = REPO / "benchmarks" / "bank"
AUDIO = BANK / "audio"
sys.path.insert(0, str(BANK))

import make_recordings as mr  # noqa: E402

RECORDINGS = [f"bank_rec_{n:02d}" for n in range(1, 14)]

# The committed audio; adding a recording must leave the others byte-identical (same seeds: rec N uses seed + N).
SHA256 = {
    "bank_rec_01": "dcd1bd6846d0c65c1b1e028340497814985dfe557c4e931a9eb3f7bbf01082b5",
    "bank_rec_02": "7dbefb8941bc318897024773af66d460048f79a050d2ed103bb609a3fd6985ae",
    "bank_rec_03": "a42af1897a7046aa80926b9ebb2a8a836d8d0e74301207244da2ead1c3f9fe57",
    "bank_rec_04": "2084e497efad907a0c2d55483935f18685728f88ae3d3c83d74c9356b410e18d",
    "bank_rec_05": "83bd8d39807f41f7a4b89a98e1beb9e13c8762876cc942da7b9315d9f8a6658f",
    "bank_rec_06": "8a82bed4bae26cd2dc786661a931fb2744199b01b72db2cc5d6bd300e110373a",
    "bank_rec_07": "0ef670627e7a6aeb91913ff63b5b04b4d03a752140861cb363a0b6a4dede60db",
    "bank_rec_08": "666b35202aae3656d423176a7490869391fa8e00a7811de8a9ac3b2d7623074a",
    "bank_rec_09": "109edde9afc0d9901f88ff630860ef5c6aea8f2cc6bc892b8fee1a1b5e9bbe3d",
    "bank_rec_10": "63afb2385ab74b55e12d63fc0e3af4521e3895cc63a82185873268830639856a",
    "bank_rec_11": "ef8cfb15870c4a95f4b7b688da716544fa3a992654c2a11cf83108682440467e",
    "bank_rec_12": "ce24605c5d796660fd0296a427c326b15b4a1afdd851c0744543210facf563ab",
    "bank_rec_13": "0519aab8d26219f01b1437b4bd5c6f890f031e150b969db79da9fea1cd16b42a",
}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _truth(rec: str) -> dict:
    return json.loads((AUDIO / f"{rec}.truth.json").read_text())


def test_bank_recordings_all_registered(capsys: pytest.CaptureFixture[str]) -> None:
    """``--only`` offers exactly the thirteen recordings (argparse lists its choices when given a wrong one)."""
    with pytest.raises(SystemExit):
        mr.main(["--only", "bank_rec_99"])
    err = capsys.readouterr().err
    assert "choose from " + ", ".join(RECORDINGS) in err.replace("'", "")


@pytest.mark.parametrize("rec", RECORDINGS)
def test_bank_recording_committed_audio_pinned(rec: str) -> None:
    assert _sha256(AUDIO / f"{rec}.flac") == SHA256[rec]


@pytest.mark.parametrize("rec", RECORDINGS)
def test_bank_recording_valid_against_truth(rec: str) -> None:
    assert mr.validate(AUDIO, rec) == []


def test_bank_rec_13_built_as_its_brief_says() -> None:
    """An ED majors cubicle: handover, assessment, a phone referral, the plan; its sound events and voices."""
    truth = _truth("bank_rec_13")
    assert [s["name"] for s in truth["sections"]] == [
        "ambulance_handover",
        "ed_assessment",
        "phone_referral",
        "plan_to_family",
    ]
    ev = truth["events"]
    kinds = {e["kind"] for e in ev}
    assert {"speech", "cough", "emotion_speech", "alarm", "chime", "announcement", "phone_ring", "silence"} <= kinds
    announcement = next(e for e in ev if e["kind"] == "announcement")
    assert announcement["section"] == "ambulance_handover" and announcement["text"] and announcement["synthetic"]
    chime = next(e for e in ev if e["kind"] == "chime")
    assert chime["end_s"] <= announcement["start_s"] < chime["end_s"] + 1.0
    # the patient's real coughs (4-6, one over the end of a turn) and one from the next cubicle
    coughs = [e for e in ev if e["kind"] == "cough"]
    patient = [e for e in coughs if e["role"] == "patient"]
    assert 4 <= len(patient) <= 6 and all(not e["synthetic"] for e in coughs)
    assert sum("overlaps_speech_end" in e["tags"] for e in patient) == 1
    assert [e["speaker"] for e in coughs if "next_cubicle" in e["tags"]] == ["bank13_next_cubicle"]
    # 2-3 RAVDESS lines from the next cubicle, allowed actors only, clips no other recording uses
    rav = [e for e in ev if e["kind"] == "emotion_speech"]
    assert 2 <= len(rav) <= 3 and all("next_cubicle" in e["tags"] for e in rav)
    assert {mr.parse_ravdess(Path(e["source"]).name)["actor"] for e in rav} <= mr.ALLOWED_RAVDESS_ACTORS
    used_before = {e["source"] for r in RECORDINGS[:-1] for e in _truth(r)["events"] if e["kind"] == "emotion_speech"}
    assert not {e["source"] for e in rav} & used_before
    # a different voice per person; the ED doctor's voice was never a clinician's before
    voices = [s["voice"] for s in truth["speakers"].values() if s["voice"]]
    assert len(voices) == len(set(voices))
    clinician_before = {
        s["voice"] for r in RECORDINGS[:-1] for s in _truth(r)["speakers"].values() if s["role"] == "clinician"
    }
    assert truth["speakers"]["bank13_clinician"]["voice"] not in clinician_before
    # the phone referral: ring-back first, both sides band-limited
    phone = [e for e in ev if e["section"] == "phone_referral" and e["kind"] != "silence"]
    assert phone[0]["kind"] == "phone_ring" and all("telephone" in e["tags"] for e in phone)
    assert {e["speaker"] for e in phone if e["kind"] == "speech"} == {"bank13_clinician", "bank13_registrar"}


def test_bank_rec_13_licences_listed() -> None:
    """audio/LICENSES.md lists every clip of bank_rec_13, with the real clips' sources."""
    text = (AUDIO / "LICENSES.md").read_text()
    assert "| `bank_rec_13.flac` + `.truth.json` |" in text
    part = text.split("### bank_rec_13.flac", 1)[1]
    for e in _truth("bank_rec_13")["events"]:
        if e["kind"] == "silence":
            continue
        assert f"| {e['id']} |" in part
        if not e["synthetic"]:
            assert e["source"] in part


@pytest.mark.slow
@pytest.mark.parametrize("rec", ["bank_rec_12", "bank_rec_13"])
def test_bank_recording_rebuilds_byte_identical(rec: str, tmp_path: Path) -> None:
    """Rebuilding a recording gives the committed FLAC and truth file byte for byte."""
    if not (shutil.which("flite") and shutil.which("espeak-ng")):
        pytest.skip("needs flite and espeak-ng")
    if not (mr.DEFAULT_COUGH_SOURCE.exists() and mr.DEFAULT_CUE_COUGH.exists() and mr.DEFAULT_RAVDESS_DIR.exists()):
        pytest.skip("needs the shared data (cough source, cue cough, ser-train)")
    assert mr.main(["--only", rec, "--out-dir", str(tmp_path)]) == 0
    assert _sha256(tmp_path / f"{rec}.flac") == SHA256[rec]
    assert (tmp_path / f"{rec}.truth.json").read_bytes() == (AUDIO / f"{rec}.truth.json").read_bytes()
