#include "app/matmul/matmul_choice.h"

namespace cvz {

LaunchChoice matmul_choice(const MatmulLaunch& launch) {
    LaunchChoice choice;
    choice.ref = launch.ref();
    choice.block = launch.block;
    return choice;
}

MatmulLaunch matmul_launch(const LaunchChoice& choice, const MatmulLaunch& base) {
    MatmulLaunch l = MatmulLaunch::of(MatmulVariant(choice.ref.variant), choice.block, choice.ref.tile ? choice.ref.tile : base.tile);
    const KernelInfo* info = choice.info();
    l.second_barrier = l.kernel == base.kernel && info && info->barriers ? base.second_barrier : true;
    return l;
}

}  // namespace cvz
