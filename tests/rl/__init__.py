"""Reinforcement learning: the environments, the vectorised ones and the example."""
