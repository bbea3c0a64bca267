// SPDX-License-Identifier: MIT
// The routed call's grouping step, alone: the slots of each expert in
// (row, slot) order, experts in id order, read through a padded ids stride;
// an id out of range refused by row, slot, id and E.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dispatch/expert_routing.hpp"
#include "formats/format.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

constexpr int64_t kE = 5;

Layout stack_layout() {
    const int64_t shape[3] = {kE, 4, 64};
    return make_layout(*find_format(FormatId::Q8_0), shape, 3, BlockOrder::RowMajor);
}

MatmulCall routing(const std::vector<int32_t>& ids, int64_t n, int64_t k, int64_t stride) {
    MatmulCall c;
    c.routed = true;
    c.n = n;
    c.k = k;
    c.ids = ids.data();
    c.ids_row_stride = stride;
    return c;
}

TEST(ExpertRouting, SlotsAreGroupedByExpertInRowSlotOrder) {
    // 3 rows of k = 3 ids, each row padded to 5 (the padding is never read).
    const std::vector<int32_t> ids = {4, 1, 4, -9, -9,  //
                                      1, 0, 3, 99, 99,  //
                                      3, 4, 1, 77, 77};
    Context ctx;
    const SlotGroups g = group_slots_by_expert(ctx, routing(ids, 3, 3, 5), stack_layout());
    ASSERT_EQ(g.total, 9);
    const std::vector<int64_t> start(g.start, g.start + kE + 1);
    EXPECT_EQ(start, (std::vector<int64_t>{0, 1, 4, 4, 6, 9})) << "expert 2 has no slot";
    const std::vector<int64_t> slot_at(g.slot_at, g.slot_at + g.total);
    // slot i * k + s: expert 0 {(1,1)}, 1 {(0,1), (1,0), (2,2)}, 3 {(1,2), (2,0)}, 4 {(0,0), (0,2), (2,1)}.
    EXPECT_EQ(slot_at, (std::vector<int64_t>{4, 1, 3, 8, 5, 6, 0, 2, 7}));
}

TEST(ExpertRouting, AnIdOutOfRangeIsNamedByRowAndSlot) {
    Context ctx;
    for (int32_t bad : {-1, int32_t(kE), INT32_MIN}) {
        const std::vector<int32_t> ids = {0, 1, 2, bad, 3, 4};
        try {
            group_slots_by_expert(ctx, routing(ids, 2, 3, 3), stack_layout());
            ADD_FAILURE() << "id " << bad << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
            const std::string want = "row 1, slot 0: expert id " + std::to_string(bad) + " is outside the 5 experts";
            EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("valid ids: 0..4"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace skn_core
