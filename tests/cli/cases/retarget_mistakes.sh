# A new user's slips with retarget, each an error (exit 2, nothing
# written) whose message points at what retarget takes: a model given
# where the dance goes names --from and --to (retarget has no --model).
need_corpus
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_mei.pmd)" mei.pmd

expect_exit 2 "$POSEKIT" retarget gene.pmx --from gene.pmx --to mei.pmd -o out.vmd
expect_stderr_contains "posekit: gene.pmx: a PMX model, not a motion or pose (models go with --model, and retarget's with --from and --to)"
expect_no_file out.vmd
expect_exit 2 "$POSEKIT" retarget camera.vmd --from gene.pmx --to mei.pmd --motion mei.pmd -o out.vmd
expect_stderr_contains "posekit: mei.pmd: a PMD model, not a motion or pose (models go with --model, and retarget's with --from and --to)"
expect_no_file out.vmd
