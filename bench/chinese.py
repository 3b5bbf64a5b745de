"""Seeded Chinese reading notes for synthetic digests (bench/synthetic.py --chinese-notes).

Sentences are drawn from templates filled with real Chinese machine-learning terms, so that the
index meets the bigrams real notes would give: terms that share characters (模型, 模型压缩,
大模型), common function characters (的, 了, 在) and the full-width punctuation of Chinese text.
"""

from __future__ import annotations

import random

TERMS = tuple("""
机器学习 深度学习 强化学习 监督学习 无监督学习 自监督学习 半监督学习 迁移学习 元学习 联邦学习
对比学习 表示学习 度量学习 主动学习 持续学习 多任务学习 在线学习 课程学习 模仿学习 逆强化学习
神经网络 卷积神经网络 循环神经网络 图神经网络 脉冲神经网络 前馈网络 残差网络 胶囊网络 生成对抗网络 变分自编码器
自编码器 扩散模型 流模型 能量模型 语言模型 大语言模型 大模型 预训练模型 基础模型 多模态大模型
视觉语言模型 世界模型 奖励模型 混合专家模型 状态空间模型 注意力机制 自注意力 交叉注意力 多头注意力 稀疏注意力
位置编码 词嵌入 嵌入向量 编码器 解码器 变换器 分词器 上下文窗口 长上下文 提示词
提示工程 思维链 上下文学习 指令微调 参数高效微调 低秩适配 全参数微调 人类反馈 偏好优化 直接偏好优化
知识蒸馏 模型压缩 模型剪枝 量化 低比特量化 稀疏化 推理加速 投机解码 键值缓存 批量推理
梯度下降 随机梯度下降 动量 学习率 学习率调度 权重衰减 正则化 批归一化 层归一化 丢弃法
损失函数 交叉熵 均方误差 对比损失 目标函数 优化器 收敛速度 泛化能力 过拟合 欠拟合
样本效率 数据增强 数据集 训练集 验证集 测试集 基准测试 评测指标 准确率 召回率
精确率 困惑度 鲁棒性 对抗样本 对抗攻击 对抗训练 后门攻击 成员推断 差分隐私 隐私保护
可解释性 公平性 因果推断 因果发现 反事实推理 贝叶斯推断 变分推断 蒙特卡洛采样 马尔可夫链 概率图模型
高斯过程 核方法 支持向量机 决策树 随机森林 梯度提升 聚类 降维 主成分分析 流形学习
目标检测 图像分类 语义分割 实例分割 图像生成 文本生成 视频生成 三维重建 神经辐射场 点云
姿态估计 光流估计 图像修复 超分辨率 风格迁移 图像检索 视觉问答 图像描述 开放词汇 零样本
少样本 小样本学习 领域自适应 分布外泛化 分布偏移 不确定性估计 置信度校准 共形预测 主动推理 贝叶斯优化
机器翻译 文本分类 情感分析 命名实体识别 信息抽取 问答系统 对话系统 检索增强生成 知识图谱 知识图谱补全
代码生成 数学推理 逻辑推理 规划 工具调用 智能体 多智能体 具身智能 机器人 自动驾驶
语音识别 语音合成 说话人识别 音频生成 音乐生成 时间序列 时间序列预测 异常检测 推荐系统 搜索引擎
分子生成 蛋白质结构预测 药物发现 材料设计 天气预报 科学计算 偏微分方程 物理信息神经网络 算子学习 符号回归
策略梯度 价值函数 演员评论家 离线强化学习 基于模型的强化学习 探索与利用 多臂老虎机 奖励塑形 马尔可夫决策过程 蒙特卡洛树搜索
缩放定律 涌现能力 幻觉 对齐 安全性 红队测试 越狱攻击 水印 版权 数据污染
计算开销 显存占用 吞吐量 延迟 并行训练 数据并行 模型并行 流水线并行 混合精度 分布式训练
""".split())
SUBJECTS = ("本文", "作者", "这篇论文", "该方法", "这项工作", "论文", "我们")
TEMPLATES = (
    "{s}研究了{a}在{b}中的作用。",
    "{s}提出了一种基于{a}的{b}方法，显著提升了{c}。",
    "{s}把{a}和{b}结合起来，用于解决{c}问题。",
    "实验表明，{a}能够在{b}上取得比{c}更好的结果。",
    "与已有的{a}方法相比，{s}在{b}和{c}之间取得了更好的平衡。",
    "核心思想是用{a}代替{b}，从而降低{c}。",
    "{s}的主要贡献有三点：{a}、{b}以及{c}。",
    "值得注意的是，{a}对{b}非常敏感。",
    "{s}在多个{a}基准上验证了{b}的有效性。",
    "局限在于{a}依赖大量{b}，{c}仍然较高。",
    "我认为{a}部分写得最清楚，{b}的分析略显不足。",
    "这与{a}领域关于{b}的结论一致。",
    "如果把{a}换成{b}，{c}可能会更好。",
    "{s}还讨论了{a}与{b}的关系。",
    "附录给出了{a}的理论分析，证明了{b}的收敛性。",
    "读后感：{a}值得在{b}上复现。",
    "相关工作：{a}、{b}、{c}。",
    "问题：{a}能否推广到{b}？",
)


def chinese_notes(rng: random.Random) -> str:
    """A few lines of reading notes in Chinese: 3-6 sentences, each a bullet, with an English
    acronym now and then, as real notes mix them."""
    lines = []
    for _ in range(rng.randint(3, 6)):
        a, b, c = rng.sample(TERMS, 3)
        sentence = rng.choice(TEMPLATES).format(s=rng.choice(SUBJECTS), a=a, b=b, c=c)
        if rng.random() < 0.2:
            sentence = rng.choice(("LLM", "GPT-4", "CLIP", "ViT", "BERT", "RLHF", "LoRA")) + "的" + sentence
        lines.append(f"- {sentence}")
    return "\n".join(lines)
