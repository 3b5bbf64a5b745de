"""importers/venues.py: a proceedings' or journal's name and the year to the venue readers say."""

import pytest

from generator.importers.venues import short_venue


@pytest.mark.parametrize("name, year, venue", [
    ("Advances in Neural Information Processing Systems", "2018", "NeurIPS 2018"),
    ("Advances in Neural Information Processing Systems 31: Annual Conference on Neural "
     "Information Processing Systems 2018, NeurIPS 2018, December 3-8, 2018, Montréal, Canada",
     "2018", "NeurIPS 2018"),
    ("NIPS", "2017", "NeurIPS 2017"),
    ("Neural Information Processing Systems Track on Datasets and Benchmarks", "2021",
     "NeurIPS Datasets and Benchmarks 2021"),
    ("Proceedings of the 36th International Conference on Machine Learning", "2019", "ICML 2019"),
    ("The Thirteenth International Conference on Learning Representations, {ICLR} 2025, "
     "Singapore, April 24-28, 2025", "2025", "ICLR 2025"),
    ("International Conference on Learning Representations", "2018", "ICLR 2018"),
    ("Proceedings of The 25th International Conference on Artificial Intelligence and "
     "Statistics", "2022", "AISTATS 2022"),
    ("Proceedings of the Thirty-Fifth Conference on Uncertainty in Artificial Intelligence",
     "2019", "UAI 2019"),
    ("Proceedings of Thirty Fifth Conference on Learning Theory", "2022", "COLT 2022"),
    ("Proceedings of the 34th International Conference on Algorithmic Learning Theory", "2023",
     "ALT 2023"),
    ("Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics "
     "(Volume 1: Long Papers)", "2022", "ACL 2022"),
    ("Findings of the Association for Computational Linguistics: ACL 2022", "2022",
     "Findings of ACL 2022"),
    ("Findings of the Association for Computational Linguistics: EMNLP 2021", "2021",
     "Findings of EMNLP 2021"),
    ("Proceedings of the 2021 Conference on Empirical Methods in Natural Language Processing",
     "2021", "EMNLP 2021"),
    ("Proceedings of the 2022 Conference of the North American Chapter of the Association for "
     "Computational Linguistics: Human Language Technologies", "2022", "NAACL 2022"),
    ("Proceedings of the 16th Conference of the European Chapter of the Association for "
     "Computational Linguistics: Main Volume", "2021", "EACL 2021"),
    ("Proceedings of the 29th International Conference on Computational Linguistics", "2022",
     "COLING 2022"),
    ("Transactions of the Association for Computational Linguistics", "2020", "TACL 2020"),
    ("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
     "2022", "CVPR 2022"),
    ("Proceedings of the IEEE/CVF International Conference on Computer Vision (ICCV)", "2021",
     "ICCV 2021"),
    ("Computer Vision – ECCV 2020", "2020", "ECCV 2020"),
    ("Proceedings of the IEEE/CVF Winter Conference on Applications of Computer Vision (WACV)",
     "2023", "WACV 2023"),
    ("Proceedings of the AAAI Conference on Artificial Intelligence", "2021", "AAAI 2021"),
    ("Proceedings of the Thirty-Third International Joint Conference on Artificial "
     "Intelligence, {IJCAI-24}", "2024", "IJCAI 2024"),
    ("Proceedings of the 28th ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
     "2022", "KDD 2022"),
    ("Proceedings of The Web Conference 2020", "", "WWW 2020"),
    ("Proceedings of the 44th International ACM SIGIR Conference on Research and Development "
     "in Information Retrieval", "2021", "SIGIR 2021"),
    ("Proceedings of the Fifteenth ACM International Conference on Web Search and Data Mining",
     "2022", "WSDM 2022"),
    ("Proceedings of the 31st ACM International Conference on Information & Knowledge "
     "Management", "2022", "CIKM 2022"),
    ("Transactions on Machine Learning Research", "2023", "TMLR 2023"),
    ("Trans. Mach. Learn. Res.", "2023", "TMLR 2023"),  # DBLP's abbreviation
    ("Journal of Machine Learning Research", "2020", "JMLR 2020"),
    ("{IEEE} Trans. Pattern Anal. Mach. Intell.", "2021", "TPAMI 2021"),
    ("Proceedings of the 51st Annual ACM SIGACT Symposium on Theory of Computing", "2019",
     "STOC 2019"),
])
def test_a_major_venue_is_named_as_readers_name_it(name, year, venue):
    assert short_venue(name, year) == venue


@pytest.mark.parametrize("name, year, venue", [
    ("Journal of Old Machines", "2024", "Journal of Old Machines 2024"),
    ("Journal of Old Machines 2023", "2024", "Journal of Old Machines 2023"),
    ("ICML 2019 Workshop on Deep Phenomena", "2019", "ICML 2019 Workshop on Deep Phenomena"),
    ("Companion Proceedings of the Web Conference 2022", "2022",
     "Companion Proceedings of the Web Conference 2022"),
    ("International Conference on Machine Learning and Applications", "2020",
     "International Conference on Machine Learning and Applications 2020"),
    ("Proceedings of the International AAAI Conference on Web and Social Media", "2021",
     "Proceedings of the International AAAI Conference on Web and Social Media 2021"),
    ("Some Venue", "in press", "Some Venue"),
    ("", "2024", ""),
])
def test_an_unknown_venue_keeps_its_name_and_gains_the_year_it_lacks(name, year, venue):
    assert short_venue(name, year) == venue
