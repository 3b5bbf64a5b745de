"""A seeded OpenReview API v2 `/notes` answer as a whole conference gives it, for the importer's
benchmark: titles, 3-8 authors, abstracts, a venue with its presentation, a PDF, a TL;DR on half
of the notes, and 3-6 keywords per note with the spread real keywords have.

Real keywords are a few hundred common topics written every way (`Large Language Models`,
`large language models`, `LLMs`, `LLM`, `large-language-model`) and a long tail that one or two
papers use; ICLR 2025's 3,700 accepted papers carry some 16,000 keywords, about 9,000 of them
distinct as written. Here the common topics are HEAD (each drawn in one of its spellings, Zipf
over the list) and the tail one to three made-up words from bench/synthetic.py's vocabulary.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from synthetic import FIRST, LAST, vocabulary, zipf_weights

HEAD = (
    "Large Language Models|LLMs|LLM|large language model", "Reinforcement Learning|RL",
    "Diffusion Models|diffusion model|Diffusion", "Graph Neural Networks|GNN|GNNs",
    "Interpretability|interpretability", "Mechanistic Interpretability", "Transformers|transformer",
    "In-Context Learning|in-context learning|ICL", "Representation Learning",
    "Self-Supervised Learning|self-supervised learning|SSL", "Contrastive Learning",
    "Benchmark|Benchmarks|benchmarking", "Optimization|optimization", "Generalization",
    "Robustness|robustness", "Adversarial Robustness|adversarial attacks", "Privacy",
    "Differential Privacy|DP", "Fairness", "Alignment|alignment|AI Alignment", "RLHF",
    "Safety|AI Safety", "Vision-Language Models|VLM|VLMs|vision language models",
    "Multimodal Learning|multimodal|Multimodality", "Computer Vision",
    "Natural Language Processing|NLP", "Continual Learning|continual learning", "Meta-Learning",
    "Causal Inference|causality|Causal Discovery", "Time Series|time series forecasting",
    "Uncertainty Quantification|uncertainty", "Bayesian Inference|Bayesian Deep Learning",
    "Variational Inference", "Generative Models|generative modeling", "Flow Matching",
    "Normalizing Flows", "Sparse Autoencoders|SAE", "Knowledge Distillation|distillation",
    "Pruning|pruning", "Quantization|quantization", "Efficient Inference|efficiency",
    "Mixture of Experts|MoE", "State Space Models|SSM|Mamba", "Retrieval-Augmented Generation|RAG",
    "Reasoning|reasoning", "Chain-of-Thought|CoT", "Mathematical Reasoning", "Code Generation",
    "Agents|LLM Agents|agent", "Planning", "Robotics", "Imitation Learning",
    "Offline Reinforcement Learning|offline RL", "Multi-Agent Reinforcement Learning|MARL",
    "Domain Adaptation", "Out-of-Distribution Detection|OOD detection", "Explainability|XAI",
    "Protein Design", "Drug Discovery", "AI for Science", "Molecular Generation",
    "Neural Architecture Search|NAS", "Scaling Laws|scaling law", "Deep Learning Theory",
    "Learning Theory", "Kernel Methods", "Neural Tangent Kernel|NTK", "Point Clouds",
    "3D Reconstruction", "Neural Radiance Fields|NeRF", "Gaussian Splatting|3D Gaussian Splatting",
    "Video Generation", "Image Generation|text-to-image", "Speech Recognition", "Audio",
    "Watermarking", "Data Attribution", "Machine Unlearning|unlearning", "Memorization",
    "Hallucination|hallucinations", "Evaluation", "Datasets|dataset", "Tokenization",
    "Long Context|long-context", "Attention|attention mechanism", "Positional Encoding",
    "Optimal Transport|OT", "Physics-Informed Neural Networks|PINN", "Neural Operators",
    "Recommender Systems", "Information Retrieval|retrieval", "Federated Learning|FL",
    "Fine-Tuning|fine-tuning|Parameter-Efficient Fine-Tuning|PEFT|LoRA", "Instruction Tuning",
    "Preference Optimization|DPO", "Reward Modeling", "Test-Time Compute", "Synthetic Data",
    "Model Merging", "Jailbreak|jailbreaking", "Red Teaming", "World Models", "Embodied AI",
)


def _keyword(rng: random.Random, head: list[list[str]], head_weights: list[float],
             tail: list[str], tail_weights: list[float]) -> str:
    """Three in five from a common topic, in one of its spellings; the rest from the long tail."""
    if rng.random() < 0.6:
        spellings = rng.choices(head, cum_weights=head_weights)[0]
        word = rng.choice(spellings)
        return word.lower() if rng.random() < 0.2 else word
    words = rng.choices(tail, cum_weights=tail_weights, k=rng.randint(1, 3))
    return " ".join(w.capitalize() if rng.random() < 0.5 else w for w in words)


def notes(count: int, seed: int) -> dict:
    """An OpenReview answer of `count` accepted notes, the same for the same seed."""
    rng = random.Random(seed)
    words = vocabulary(rng)
    weights = zipf_weights(len(words))
    head = [topic.split("|") for topic in HEAD]
    head_weights = zipf_weights(len(head), s=0.8)
    tail, tail_weights = words[200:], zipf_weights(len(words) - 200, s=0.6)
    items = []
    for number in range(count):
        forum = "".join(rng.choices(string.ascii_letters + string.digits, k=10))
        title = " ".join(w.capitalize() for w in rng.choices(words, cum_weights=weights,
                                                              k=rng.randint(6, 12)))
        keywords = [_keyword(rng, head, head_weights, tail, tail_weights)
                    for _ in range(rng.randint(3, 6))]
        content = {
            "title": {"value": f"{title} {number}"},
            "authors": {"value": [f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                                  for _ in range(rng.randint(3, 8))]},
            "keywords": {"value": keywords},
            "abstract": {"value": " ".join(rng.choices(words, cum_weights=weights,
                                                        k=rng.randint(120, 200))).capitalize() + "."},
            "venue": {"value": rng.choices(("ICLR 2025 Poster", "ICLR 2025 Spotlight",
                                            "ICLR 2025 Oral"), weights=(80, 15, 5))[0]},
            "pdf": {"value": f"/pdf/{rng.getrandbits(160):040x}.pdf"},
        }
        if rng.random() < 0.5:
            content["TLDR"] = {"value": " ".join(rng.choices(words, cum_weights=weights, k=15))}
        items.append({"id": forum, "forum": forum, "content": content,
                      "pdate": 1737590387362 + number, "version": 2})
    return {"notes": items}


def write_notes(path: Path, count: int, seed: int) -> None:
    """The seeded answer, indented as OpenReview's API writes it."""
    path.write_text(json.dumps(notes(count, seed), indent=1, ensure_ascii=False), encoding="utf-8")
