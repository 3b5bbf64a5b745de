"""Venues as readers name them: a proceedings' or journal's full name and the year to the short
venue ('Advances in Neural Information Processing Systems', 2018 -> 'NeurIPS 2018').

The table holds the major venues of machine learning, NLP, vision, data mining, information
retrieval, robotics, speech and theory, each with its full names old and new and its
acronym, matched on the name lowercased with punctuation as spaces (so DBLP's 'Trans. Mach.
Learn. Res.' is 'trans mach learn res'). A workshop, companion, demo or tutorial volume is not
the main venue: it keeps its own name, as an unknown venue does, with the year added when the
name lacks it.
"""

from __future__ import annotations

import re
import unicodedata

_VENUES: tuple[tuple[str, str], ...] = (
    # (short name, pattern on the normalised name); the first match wins, so a name that
    # contains another's comes first (Findings before ACL, NAACL before ACL, PAKDD before KDD)
    ("Findings", r"\bfindings of (?:the )?(?:association for computational linguistics|acl)\b"),
    ("NeurIPS Datasets and Benchmarks", r"neural information processing systems.*\bdatasets "
                                        r"and benchmarks\b|\bneurips datasets and benchmarks\b"),
    ("NeurIPS", r"\bneural information processing systems\b|\bneurips\b|\bnips\b"),
    ("ICML", r"\binternational conference on machine learning\b(?! and)|\bicml\b"),
    ("ICLR", r"\binternational conference on learning representations\b|\biclr\b"),
    ("AISTATS", r"\bartificial intelligence and statistics\b|\baistats\b"),
    ("UAI", r"\buncertainty in artificial intelligence\b|\buai\b"),
    ("COLT", r"(?<!algorithmic )\bconference on learning theory\b|\bcolt\b"),
    ("ALT", r"\balgorithmic learning theory\b|\balt\b"),
    ("TMLR", r"\btransactions on machine learning research\b|\btrans mach learn res\b|\btmlr\b"),
    ("JMLR", r"\bjournal of machine learning research\b|\bj mach learn res\b|\bjmlr\b"),
    ("MLSys", r"\bconference on machine learning and systems\b|\bmlsys\b"),
    ("NAACL", r"\bnorth american chapter of the association for computational linguistics\b"
              r"|\bnaacl\b"),
    ("EACL", r"\beuropean chapter of the association for computational linguistics\b|\beacl\b"),
    ("AACL", r"\basia pacific chapter of the association for computational linguistics\b"
             r"|\baacl\b"),
    ("TACL", r"\btransactions of the association for computational linguistics\b"
             r"|\btrans assoc comput linguistics\b|\btacl\b"),
    ("ACL", r"\bannual meeting of the association for computational linguistics\b|\bacl\b"),
    ("EMNLP", r"\bempirical methods in natural language processing\b|\bemnlp\b"),
    ("CoNLL", r"\bcomputational natural language learning\b|\bconll\b"),
    ("LREC", r"\blanguage resources and evaluation\b|\blrec\b"),
    ("COLING", r"\binternational conference on computational linguistics\b|\bcoling\b"),
    ("Interspeech", r"\binterspeech\b"),
    ("ICASSP", r"\bacoustics speech and signal processing\b|\bicassp\b"),
    ("CVPR", r"\bcomputer vision and pattern recognition\b|\bcvpr\b"),
    ("ICCV", r"\binternational conference on computer vision\b(?! theory| and)|\biccv\b"),
    ("ECCV", r"\beuropean conference on computer vision\b|\beccv\b"),
    ("WACV", r"\bwinter conference on applications of computer vision\b|\bwacv\b"),
    ("BMVC", r"\bbritish machine vision conference\b|\bbmvc\b"),
    ("TPAMI", r"\btransactions on pattern analysis and machine intelligence\b"
              r"|\btrans pattern anal mach intell\b|\btpami\b"),
    ("IJCV", r"\binternational journal of computer vision\b|\bint j comput vis\b|\bijcv\b"),
    ("CoRL", r"\bconference on robot learning\b|\bcorl\b"),
    ("ICRA", r"\binternational conference on robotics and automation\b|\bicra\b"),
    ("IROS", r"\bintelligent robots and systems\b|\biros\b"),
    ("AAAI", r"\baaai conference on artificial intelligence\b"),
    ("IJCAI", r"\binternational joint conference on artificial intelligence\b|\bijcai\b"),
    ("PAKDD", r"\bpacific asia conference on knowledge discovery\b|\bpakdd\b"),
    ("KDD", r"\bknowledge discovery (?:and )?(?:in )?data mining\b|\bkdd\b"),
    ("SDM", r"\bsiam international conference on data mining\b"),
    ("ICDM", r"\binternational conference on data mining\b|\bicdm\b"),
    ("WSDM", r"\bweb search and data mining\b|\bwsdm\b"),
    ("WWW", r"\bthe web conference\b|\bworld wide web\b|\bwww\b"),
    ("SIGIR", r"\bresearch and development in information retrieval\b|\bsigir\b"),
    ("CIKM", r"\binformation and knowledge management\b|\bcikm\b"),
    ("RecSys", r"\bconference on recommender systems\b|\brecsys\b"),
    ("FAccT", r"\bfairness accountability and transparency\b|\bfacct\b"),
    ("CHI", r"\bhuman factors in computing systems\b|\bchi\b"),
    ("STOC", r"\bsymposium on theory of computing\b|\bstoc\b"),
    ("FOCS", r"\bfoundations of computer science\b|\bfocs\b"),
    ("SODA", r"\bsymposium on discrete algorithms\b|\bsoda\b"),
    ("ICALP", r"\bautomata languages and programming\b|\bicalp\b"),
    ("ITCS", r"\binnovations in theoretical computer science\b|\bitcs\b"),
)
_MATCHERS = tuple((short, re.compile(pattern)) for short, pattern in _VENUES)
_NOT_MAIN = re.compile(r"\b(?:workshops?|companion|tutorials?|demonstrations?|demos?|student "
                       r"research|doctoral|adjunct|extended abstracts|late breaking)\b")
_FINDINGS_OF = re.compile(r"\bfindings of (?:the )?(?:association for computational linguistics|"
                          r"acl)(?: (acl|emnlp|naacl|eacl|aacl)\b)?")
_YEAR = re.compile(r"(?<![\d])(?:19[5-9]\d|20\d\d)(?![\d])")


def short_venue(name: str, year: str = "") -> str:
    """'NeurIPS 2018' for the NeurIPS proceedings' name and 2018; an unknown venue keeps its
    name, with `year` added when the name has no year of its own; '' for no name."""
    name = " ".join(name.split())
    if not name:
        return ""
    normal = normalise(name)
    year = (_YEAR.findall(name) or _YEAR.findall(year) or [""])[-1]
    short = "" if _NOT_MAIN.search(normal) else venue_acronym(normal)
    if not short:
        return name if not year or year in name else f"{name} {year}"
    return f"{short} {year}".strip()


def venue_acronym(normal: str) -> str:
    """The short name of a normalised venue name ('Findings of EMNLP'), '' if it is unknown."""
    short = next((short for short, pattern in _MATCHERS if pattern.search(normal)), "")
    if short == "Findings":
        found = _FINDINGS_OF.search(normal)
        return f"Findings of {(found.group(1) or 'acl').upper()}"
    return short


def normalise(name: str) -> str:
    """Lowercase ASCII words, '&' as 'and': 'Proceedings of the 36th Int. Conf. on Machine
    Learning, {ICML}' -> 'proceedings of the 36th int conf on machine learning icml'."""
    folded = unicodedata.normalize("NFKD", name.replace("&", " and ")).encode(
        "ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())
