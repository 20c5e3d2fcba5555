"""A verb skill library for planners and vision-language models: SkillNodes with contracts judged by
the evaluator's predicates, their relations, a catalog, skill subgraphs and a symbolic planner."""
